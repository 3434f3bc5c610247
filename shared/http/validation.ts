/** Validates a request against its row's schemas, mapping valibot issues to the contract's errors. */
import * as v from 'valibot';
import { InvalidRequestError, InvalidUrlError, PayloadTooLargeError, UnsupportedValueError } from '#shared/errors.ts';
import type { HttpError } from '#shared/errors.ts';
import { parsedForm } from '#shared/http/form.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import { mediaTypeOf } from '#shared/net/media-type.ts';
import { issuePath } from '#shared/schemas/issue-path.ts';
import type { BodySpec, LambdaContext, LambdaEvent, RouteRow } from '#shared/route-types.ts';

/** Where a value came from, for the hint: body fields are named bare, others are qualified. */
export type Location = 'body' | 'query' | 'path' | 'header';

const ENUM_TYPES = new Set(['picklist', 'enum', 'literal']);
const URL_TYPES = new Set(['url', 'http_url']);

function fieldName(issue: v.BaseIssue<unknown>, location: Location): string {
  const name = issuePath(issue);
  if (location === 'body') return name || 'body';
  const label = location === 'path' ? 'path parameter' : location === 'query' ? 'query parameter' : 'header';
  return name ? `${label} ${name}` : label;
}

/** From valibot's `expected`: '"a" | "b"'. */
function allowedValues(issue: v.BaseIssue<unknown>): string {
  return (issue.expected ?? '').replace(/["()]/g, '').split(' | ').join(', ');
}

/** Maps the first issue (the most specific: an unknown or missing field before its consequences) to an error naming the field. */
export function issueToError(issues: readonly v.BaseIssue<unknown>[], location: Location): HttpError {
  const issue = issues[0]!;
  const field = fieldName(issue, location);
  const missing = issue.input === undefined && issue.kind === 'schema';
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    return new InvalidRequestError(`Unknown field ${field}`, `Remove ${field}: it is not part of this request.`);
  }
  if (missing && location !== 'body') {
    return new InvalidRequestError(`Missing ${field}`, `${field} is required.`);
  }
  if (missing) {
    return new InvalidRequestError(`Missing field ${field}`, `${field} is required.`);
  }
  if (ENUM_TYPES.has(issue.type) && typeof issue.input !== 'object') {
    // An item of a list is named by its value too: redact[2] alone does not say which kind was wrong.
    const got = typeof issue.path?.at(-1)?.key === 'number' ? ` (got ${JSON.stringify(issue.input)})` : '';
    return new UnsupportedValueError(`Unsupported value for ${field}`, `${field} must be one of: ${allowedValues(issue)}${got}.`);
  }
  if (URL_TYPES.has(issue.type)) {
    return new InvalidUrlError(`Invalid URL in ${field}`, `${field} must be an absolute http:// or https:// URL (got ${JSON.stringify(issue.input)}).`);
  }
  return new InvalidRequestError(`Invalid ${field}`, `${field}: ${issue.message}`);
}

/** Keys valibot's records and objects skip without a word: a JavaScript object cannot hold them as data. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The path of the first key (walked without recursion: bodies may nest deep) that validation would drop silently: refused, not lost. */
function unsafeKeyPath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, child] of Object.entries(node)) {
      const at = Array.isArray(node) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!Array.isArray(node) && UNSAFE_KEYS.has(key)) return at;
      stack.push([child, at]);
    }
  }
  return undefined;
}

export function parseWith<S extends v.GenericSchema>(schema: S, value: unknown, location: Location): v.InferOutput<S> {
  // valibot's object schemas accept arrays; a JSON body that is not an object is malformed, not incomplete.
  const wantsObject = schema.type === 'object' || schema.type === 'strict_object' || schema.type === 'loose_object';
  if (location === 'body' && wantsObject && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new InvalidRequestError('Body must be a JSON object', 'Send a JSON object, e.g. {"url": "https://example.com"}.');
  }
  const unsafe = location === 'body' ? unsafeKeyPath(value) : undefined;
  if (unsafe !== undefined) {
    const key = unsafe.slice(unsafe.lastIndexOf('.') + 1);
    throw new InvalidRequestError(
      `Invalid ${unsafe}`,
      `${unsafe}: the key ${JSON.stringify(key)} cannot be taken as it is written; where case does not matter, as in a header name, write it in other letters (${JSON.stringify(key.replace(/[a-z]/, (letter) => letter.toUpperCase()))}).`,
    );
  }
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  if (!result.success) throw issueToError(result.issues, location);
  return result.output;
}

/** Each part is undefined where the row has no schema for it. */
export interface ValidatedInput {
  body: unknown;
  query: unknown;
  params: unknown;
  headers: unknown;
}

type WithInput = LambdaContext & { input?: ValidatedInput };

// Fatal, so a malformed byte is refused instead of stored as U+FFFD.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The bytes the client sent: API Gateway hands text over as a string and anything else base64-encoded. */
export function bodyBytes(event: LambdaEvent): Buffer {
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
}

function readJsonBody(event: LambdaEvent, spec: BodySpec): unknown {
  const bytes = bodyBytes(event);
  if (bytes.length === 0) {
    if (spec.optional) return undefined;
    throw new InvalidRequestError('Missing request body', 'Send a JSON body with Content-Type: application/json.');
  }
  if (bytes.length > spec.maxBytes) throw new PayloadTooLargeError(spec.maxBytes);
  const type = mediaTypeOf(event.headers?.['content-type']);
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new InvalidRequestError('Unsupported content type', `Send the body as JSON with Content-Type: application/json (got ${type || 'no Content-Type'}).`);
  }
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw new InvalidRequestError('Body is not valid UTF-8', 'Send the JSON body encoded as UTF-8 (RFC 8259 §8.1).');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidRequestError('Malformed JSON body', `The body is not valid JSON: ${(error as Error).message}.`);
  }
}

/** Leaves the result on the context (validatedInput()); multipartBody reads a multipart body first. */
export function validateInput(schemas: Pick<RouteRow, 'params' | 'query' | 'headers' | 'body'>): HttpMiddleware {
  return {
    before: async (request) => {
      const { event } = request;
      const input: ValidatedInput = { body: undefined, query: undefined, params: undefined, headers: undefined };
      if (schemas.params) input.params = parseWith(schemas.params, event.pathParameters ?? {}, 'path');
      if (schemas.query) input.query = parseWith(schemas.query, event.queryStringParameters ?? {}, 'query');
      if (schemas.headers) input.headers = parseWith(schemas.headers, event.headers ?? {}, 'header');
      if (schemas.body) {
        const body = schemas.body.contentType === 'multipart/form-data' ? parsedForm(request) : readJsonBody(event, schemas.body);
        input.body = parseWith(schemas.body.schema, body, 'body');
      }
      (request.context as WithInput).input = input;
    },
  };
}

export function validatedInput(context: LambdaContext): ValidatedInput {
  const input = (context as WithInput).input;
  if (!input) throw new Error('The validateInput middleware has not run for this request');
  return input;
}
