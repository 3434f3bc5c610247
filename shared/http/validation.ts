import * as v from 'valibot';
import { InvalidRequestError, InvalidUrlError, UnsupportedValueError } from '#shared/errors.ts';
import type { HttpError } from '#shared/errors.ts';

/** Where a value came from, for the hint: body fields are named bare, others are qualified. */
export type Location = 'body' | 'query' | 'path' | 'header';

const ENUM_TYPES = new Set(['picklist', 'enum', 'literal']);
const URL_TYPES = new Set(['url', 'http_url']);

function fieldName(issue: v.BaseIssue<unknown>, location: Location): string {
  const keys = (issue.path ?? []).map((item) => String(item.key));
  const name = keys.reduce((acc, key) => (/^\d+$/.test(key) ? `${acc}[${key}]` : acc ? `${acc}.${key}` : key), '');
  if (location === 'body') return name || 'body';
  const label = location === 'path' ? 'path parameter' : location === 'query' ? 'query parameter' : 'header';
  return name ? `${label} ${name}` : label;
}

/** Allowed values of an enum-like issue, from valibot's `expected` ('"a" | "b"'). */
function allowedValues(issue: v.BaseIssue<unknown>): string {
  return (issue.expected ?? '').replace(/["()]/g, '').split(' | ').join(', ');
}

/** Maps the first valibot issue to the contract's code, with a hint that names the field. */
export function issueToError(issues: readonly v.BaseIssue<unknown>[], location: Location): HttpError {
  // Report the most specific problem first: an unknown or missing field before its consequences.
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
    return new UnsupportedValueError(`Unsupported value for ${field}`, `${field} must be one of: ${allowedValues(issue)}.`);
  }
  if (URL_TYPES.has(issue.type)) {
    return new InvalidUrlError(
      `Invalid URL in ${field}`,
      `${field} must be an absolute http:// or https:// URL (got ${JSON.stringify(issue.input)}).`,
    );
  }
  return new InvalidRequestError(`Invalid ${field}`, `${field}: ${issue.message}`);
}

/** Validates a value against a schema; throws the mapped HttpError on the first problem. */
export function parseWith<S extends v.GenericSchema>(schema: S, value: unknown, location: Location): v.InferOutput<S> {
  // valibot's object schemas accept arrays; a JSON body that is not an object is malformed, not incomplete.
  const wantsObject = schema.type === 'object' || schema.type === 'strict_object' || schema.type === 'loose_object';
  if (location === 'body' && wantsObject && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new InvalidRequestError('Body must be a JSON object', 'Send a JSON object, e.g. {"url": "https://example.com"}.');
  }
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  if (!result.success) throw issueToError(result.issues, location);
  return result.output;
}
