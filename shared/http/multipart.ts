/** multipart/form-data through busboy: a malformed form is one rejected promise, and a limit busboy enforces by dropping data is a refusal. */
import { Busboy } from '@fastify/busboy';
import type { BusboyInstance } from '@fastify/busboy';
import type { Readable } from 'node:stream';
import { InvalidRequestError, PayloadTooLargeError } from '#shared/errors.ts';
import { mediaTypeOf } from '#shared/net/media-type.ts';
import type { BodySpec, MultipartFile } from '#shared/route-types.ts';
import { leaveForm } from '#shared/http/form.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';

/** So a crafted body cannot make the parser do unbounded work. */
export interface MultipartLimits {
  /** Bytes; a larger file part is 413. */
  fileSize: number;
  files: number;
  fields: number;
  parts: number;
  fieldSize: number;
  fieldNameSize: number;
  headerPairs: number;
}

export const DEFAULT_MULTIPART_LIMITS: Omit<MultipartLimits, 'fileSize'> = {
  files: 4,
  fields: 16,
  parts: 20,
  fieldSize: 1024,
  fieldNameSize: 100,
  headerPairs: 20,
};

const HINT = 'Send the fields as multipart/form-data (e.g. curl -F field=value -F file=@path).';

function malformed(why: string, cause?: unknown): InvalidRequestError {
  return new InvalidRequestError('Malformed multipart body', `The body is not valid multipart/form-data: ${why}. ${HINT}`, cause);
}

/** Parses a whole body (repeated names become arrays, in order): 400 when malformed or over a limit, 413 for a file over `limits.fileSize`. */
export function parseMultipart(body: Buffer, contentType: string, limits: MultipartLimits): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const fields: Record<string, unknown> = Object.create(null);
    const add = (name: string, value: unknown) => {
      const current = fields[name];
      if (current === undefined) fields[name] = value;
      else if (Array.isArray(current)) current.push(value);
      else fields[name] = [current, value];
    };

    let parser: BusboyInstance;
    try {
      parser = new Busboy({ headers: { 'content-type': contentType }, limits });
    } catch (error) {
      fail(malformed('the Content-Type has no usable boundary', error));
      return;
    }

    let pendingFiles = 0;
    let finished = false;
    const settle = () => {
      if (!finished || pendingFiles > 0 || settled) return;
      settled = true;
      resolve(fields);
    };
    const named = (name: string | undefined): name is string => {
      if (name === undefined || name === '') fail(malformed('a part has no field name'));
      else if (name.length > limits.fieldNameSize) fail(malformed(`a field name is longer than ${limits.fieldNameSize} characters`));
      else return true;
      return false;
    };

    parser.on('file', (name: string | undefined, stream: Readable, filename: string | undefined, encoding: string, mimetype: string) => {
      // First: a body ending inside this part errors on this stream too, and an unheard 'error' ends the process.
      stream.on('error', (error: Error) => fail(malformed('the body ends inside a part', error)));
      stream.on('limit', () => fail(new PayloadTooLargeError(limits.fileSize)));
      if (!named(name)) {
        stream.resume();
        return;
      }
      pendingFiles += 1;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        pendingFiles -= 1;
        const file: MultipartFile = { filename: filename ?? '', mimetype, encoding, content: Buffer.concat(chunks) };
        add(name, file);
        settle();
      });
    });
    parser.on('field', (name: string | undefined, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (!named(name)) return;
      if (valueTruncated) return fail(malformed(`the value of ${name} is longer than ${limits.fieldSize} bytes`));
      add(name, value);
    });
    parser.on('partsLimit', () => fail(malformed(`more than ${limits.parts} parts`)));
    parser.on('filesLimit', () => fail(malformed(`more than ${limits.files} file parts`)));
    parser.on('fieldsLimit', () => fail(malformed(`more than ${limits.fields} text fields`)));
    parser.on('error', (error: Error) => fail(malformed('it does not follow its boundary or ends early', error)));
    parser.on('finish', () => {
      finished = true;
      settle();
    });
    try {
      parser.end(body);
    } catch (error) {
      fail(malformed('it could not be read', error));
    }
  });
}

/** Reads a multipart body for the row's schema (see parsedForm()), after the checks every body gets. */
export function multipartBody(spec: Pick<BodySpec, 'maxBytes' | 'optional'>): HttpMiddleware {
  return {
    before: async (request) => {
      const { event } = request;
      const raw = event.body;
      let value: unknown;
      if (raw === undefined || raw === null || raw === '') {
        if (!spec.optional) throw new InvalidRequestError('Missing request body', HINT);
      } else {
        const bytes = Buffer.from(raw, event.isBase64Encoded ? 'base64' : 'utf8');
        if (bytes.length > spec.maxBytes) throw new PayloadTooLargeError(spec.maxBytes);
        const contentType = event.headers?.['content-type'] ?? '';
        const type = mediaTypeOf(contentType);
        if (type !== 'multipart/form-data' || !/;\s*boundary=/i.test(contentType)) {
          throw new InvalidRequestError('Unsupported content type', `${HINT} Got ${type || 'no Content-Type'}.`);
        }
        value = await parseMultipart(bytes, contentType, { ...DEFAULT_MULTIPART_LIMITS, fileSize: spec.maxBytes });
      }
      leaveForm(request, value);
    },
  };
}
