/**
 * The S3 client of the API's functions: the six operations the stores use (HeadObject, GetObject,
 * PutObject, CopyObject, DeleteObject, DeleteObjects) over S3's REST API on aws/transport.ts, in
 * place of `@aws-sdk/client-s3` (≈300 KB of every bundle that sends S3 requests, and ≈40 ms of
 * its cold start). It keeps the SDK's shape — `client.send(new HeadObjectCommand(input))`,
 * outputs with `$metadata`, errors named and shaped alike (`NoSuchKey`, `NotFound` for a HEAD
 * answered 404 without a body) — so the stores read the same and aws-sdk-client-mock stubs it
 * as it did the SDK's client. Two differences, both on purpose: a GetObject's `Body` is a Buffer
 * (the whole object, read within the time limits and retried like any answer) rather than a
 * stream, and an input member the client does not support is refused rather than ignored.
 *
 * As the SDK's client with `requestChecksumCalculation: 'WHEN_REQUIRED'` sends them: every request
 * signs its payload's SHA-256 (`x-amz-content-sha256`; never UNSIGNED-PAYLOAD, as every body is
 * in memory); DeleteObjects, which S3 refuses without a checksum, also carries the same digest
 * as `x-amz-checksum-sha256`; nothing else carries a checksum. As the SDK reads answers: an
 * error's `Code` names it; a 2xx whose body is an `<Error>` (S3 sends one when a copy fails after
 * it has answered 200) counts as a 503 of that error, and an empty CopyObject answer as
 * `InternalError` 503, both retried. test/unit/aws-s3.test.ts holds the requests to the SDK's,
 * test/integration/s3-client.test.ts the behaviour against the embedded S3 and a failing server.
 */
import { createHash } from 'node:crypto';
import { encodeKey, s3Address } from '#shared/aws/s3-address.ts';
import { canonicalQuery, sign, type AwsCredentials } from '#shared/aws/sigv4.ts';
import {
  AwsCommand,
  AwsServiceError,
  AwsTransport,
  header,
  serviceError,
  type AwsClientSettings,
  type ErrorClasses,
  type OutgoingRequest,
  type RawResponse,
  type ResponseMetadata,
  type ServiceErrorInit,
} from '#shared/aws/transport.ts';

export { AwsServiceError as S3ServiceException } from '#shared/aws/transport.ts';

/** The key is not in the bucket (GetObject, CopyObject's source). */
export class NoSuchKey extends AwsServiceError {
  constructor(init: ServiceErrorInit) {
    super({ ...init, name: 'NoSuchKey' });
  }
}

/** A HEAD answered 404: S3 sends no body to name the error by. */
export class NotFound extends AwsServiceError {
  constructor(init: ServiceErrorInit) {
    super({ ...init, name: 'NotFound' });
  }
}

const ERRORS: ErrorClasses = { NoSuchKey, NotFound };

type Operation = 'HeadObject' | 'GetObject' | 'PutObject' | 'CopyObject' | 'DeleteObject' | 'DeleteObjects';

export interface HeadObjectCommandInput {
  Bucket: string;
  Key: string;
}
export type GetObjectCommandInput = HeadObjectCommandInput;
export type DeleteObjectCommandInput = HeadObjectCommandInput;
export interface PutObjectCommandInput extends HeadObjectCommandInput {
  Body: Uint8Array | string;
  ContentType?: string;
}
export interface CopyObjectCommandInput extends HeadObjectCommandInput {
  /** `bucket/key`, URI-encoded, as the SDK takes it: copySource() builds it. */
  CopySource: string;
  ContentType?: string;
  MetadataDirective?: 'COPY' | 'REPLACE';
}
export interface DeleteObjectsCommandInput {
  Bucket: string;
  Delete: { Objects: { Key: string }[]; Quiet?: boolean };
}

/** What a HEAD or GET tells of the object (the headers the stores read, and a few more). */
export interface ObjectHeaders {
  ContentLength?: number;
  ContentType?: string;
  ETag?: string;
  LastModified?: Date;
  /** The `x-amz-meta-*` headers, by the name after the prefix. */
  Metadata?: Record<string, string>;
  $metadata: ResponseMetadata;
}
export type HeadObjectCommandOutput = ObjectHeaders;
export interface GetObjectCommandOutput extends ObjectHeaders {
  /** The whole object. */
  Body: Buffer;
}
export interface PutObjectCommandOutput {
  ETag?: string;
  VersionId?: string;
  $metadata: ResponseMetadata;
}
export interface CopyObjectCommandOutput {
  CopyObjectResult?: { ETag?: string; LastModified?: Date };
  $metadata: ResponseMetadata;
}
export interface DeleteObjectCommandOutput {
  $metadata: ResponseMetadata;
}
export interface DeleteObjectsCommandOutput {
  Deleted?: { Key?: string }[];
  /** Keys S3 could not delete; a DeleteObjects answers 200 all the same. */
  Errors?: { Key?: string; Code?: string; Message?: string }[];
  $metadata: ResponseMetadata;
}

export class HeadObjectCommand extends AwsCommand<HeadObjectCommandInput, HeadObjectCommandOutput> {
  readonly operation = 'HeadObject';
}
export class GetObjectCommand extends AwsCommand<GetObjectCommandInput, GetObjectCommandOutput> {
  readonly operation = 'GetObject';
}
export class PutObjectCommand extends AwsCommand<PutObjectCommandInput, PutObjectCommandOutput> {
  readonly operation = 'PutObject';
}
export class CopyObjectCommand extends AwsCommand<CopyObjectCommandInput, CopyObjectCommandOutput> {
  readonly operation = 'CopyObject';
}
export class DeleteObjectCommand extends AwsCommand<DeleteObjectCommandInput, DeleteObjectCommandOutput> {
  readonly operation = 'DeleteObject';
}
export class DeleteObjectsCommand extends AwsCommand<DeleteObjectsCommandInput, DeleteObjectsCommandOutput> {
  readonly operation = 'DeleteObjects';
}

export type S3Command = HeadObjectCommand | GetObjectCommand | PutObjectCommand | CopyObjectCommand | DeleteObjectCommand | DeleteObjectsCommand;

/**
 * The `CopySource` of an object: `bucket/key` with the key URI-encoded as in a path. S3 decodes
 * it; the SDK sends the value as given, and Node refuses a header with characters beyond Latin-1.
 */
export const copySource = (bucket: string, key: string): string => `${bucket}/${encodeKey(key)}`;

// ---- Requests -----------------------------------------------------------------------------------

/** The members each operation supports: another one would be ignored silently, so it is refused. */
const MEMBERS: Record<Operation, readonly string[]> = {
  HeadObject: ['Bucket', 'Key'],
  GetObject: ['Bucket', 'Key'],
  PutObject: ['Bucket', 'Key', 'Body', 'ContentType'],
  CopyObject: ['Bucket', 'Key', 'CopySource', 'ContentType', 'MetadataDirective'],
  DeleteObject: ['Bucket', 'Key'],
  DeleteObjects: ['Bucket', 'Delete'],
};

/** What a command asks of S3, before addressing and signing. */
interface Planned {
  method: string;
  bucket: string;
  key: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: Buffer;
  /** SHA-256 of the body (of nothing, without one), computed once for every attempt. */
  digest: Buffer;
}

const ELEMENT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#x0D;',
  '\n': '&#x0A;',
  '\u0085': '&#x85;',
  '\u2028': '&#x2028;',
};

/** Text as XML element content, escaped as the SDK escapes it (line breaks too: S3 would normalise them). */
const escapeXml = (text: string): string => text.replace(/[&"'<>\r\n\u0085\u2028]/g, (char) => ELEMENT_ESCAPES[char]!);

function required(operation: Operation, input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string' || value === '') throw new TypeError(`${operation}: ${name} must be a non-empty string.`);
  return value;
}

function plan(command: S3Command): Planned {
  const request = ask(command);
  return { ...request, digest: createHash('sha256').update(request.body ?? '').digest() };
}

function ask(command: S3Command): Omit<Planned, 'digest'> {
  const { operation } = command;
  const input = command.input as unknown as Record<string, unknown>;
  for (const name of Object.keys(input)) {
    if (input[name] !== undefined && !MEMBERS[operation].includes(name)) throw new TypeError(`${operation}: ${name} is not supported by Easel's S3 client.`);
  }
  const bucket = required(operation, input, 'Bucket');
  const object = (method: string, headers: Record<string, string> = {}, body?: Buffer): Omit<Planned, 'digest'> => ({
    method,
    bucket,
    key: required(operation, input, 'Key'),
    // HeadObject is the one the SDK names no `x-id` for.
    query: operation === 'HeadObject' ? {} : { 'x-id': operation },
    headers,
    ...(body ? { body } : {}),
  });
  switch (command.operation) {
    case 'HeadObject':
      return object('HEAD');
    case 'GetObject':
      return object('GET');
    case 'DeleteObject':
      return object('DELETE');
    case 'PutObject': {
      const { Body, ContentType } = command.input;
      const body = typeof Body === 'string' ? Buffer.from(Body, 'utf8') : Buffer.from(Body.buffer, Body.byteOffset, Body.byteLength);
      return object('PUT', ContentType === undefined ? {} : { 'content-type': ContentType }, body);
    }
    case 'CopyObject': {
      const { ContentType, MetadataDirective } = command.input;
      const headers: Record<string, string> = { 'x-amz-copy-source': required(operation, input, 'CopySource') };
      if (ContentType !== undefined) headers['content-type'] = ContentType;
      if (MetadataDirective !== undefined) headers['x-amz-metadata-directive'] = MetadataDirective;
      return object('PUT', headers);
    }
    case 'DeleteObjects': {
      const { Objects, Quiet, ...other } = command.input.Delete;
      if (Object.keys(other).length > 0 || Objects.some((entry) => Object.keys(entry).some((name) => name !== 'Key'))) {
        throw new TypeError('DeleteObjects: only Delete.Objects[].Key and Delete.Quiet are supported by Easel\'s S3 client.');
      }
      const xml =
        '<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        Objects.map(({ Key }) => `<Object><Key>${escapeXml(Key)}</Key></Object>`).join('') +
        (Quiet === undefined ? '' : `<Quiet>${Quiet}</Quiet>`) +
        '</Delete>';
      // S3 wants a checksum of this body: SHA-256, the digest the signature needs anyway.
      return { method: 'POST', bucket, key: '', query: { delete: '' }, headers: { 'content-type': 'application/xml', 'x-amz-sdk-checksum-algorithm': 'SHA256' }, body: Buffer.from(xml, 'utf8') };
    }
  }
}

/** Where the client sends: S3's regional endpoint, or an S3-compatible server addressed path-style. */
export interface S3Place {
  region: string;
  endpoint?: string;
}

/**
 * The request a command becomes, signed at `now`: what the client sends (exported so the tests
 * can hold requests to AWS's own host names, which they cannot send to, to the SDK's).
 */
export function signedRequest(command: S3Command, place: S3Place, credentials: AwsCredentials, now: Date = new Date()): OutgoingRequest {
  return signPlanned(plan(command), place, credentials, now);
}

function signPlanned(planned: Planned, place: S3Place, credentials: AwsCredentials, now: Date): OutgoingRequest {
  const { origin, host, path } = s3Address(place.region, place.endpoint === undefined ? undefined : new URL(place.endpoint), planned.bucket, planned.key);
  const { digest } = planned;
  const headers: Record<string, string> = { ...planned.headers, 'x-amz-content-sha256': digest.toString('hex') };
  if (planned.body) {
    headers['content-length'] = String(planned.body.length);
    if (planned.headers['x-amz-sdk-checksum-algorithm'] === 'SHA256') headers['x-amz-checksum-sha256'] = digest.toString('base64');
  }
  const signed = sign(
    { method: planned.method, host, path, query: planned.query, headers, body: '', payloadHash: headers['x-amz-content-sha256'] },
    credentials,
    { region: place.region, service: 's3' },
    now,
  );
  const query = canonicalQuery(planned.query);
  return { origin: new URL(origin), method: planned.method, path: query ? `${path}?${query}` : path, headers: signed, ...(planned.body ? { body: planned.body } : {}) };
}

// ---- Answers ------------------------------------------------------------------------------------

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_match, entity: string) =>
    entity.startsWith('#x') ? String.fromCodePoint(parseInt(entity.slice(2), 16)) : entity.startsWith('#') ? String.fromCodePoint(Number(entity.slice(1))) : ENTITIES[entity]!,
  );
}

/** The contents of every `<tag>…</tag>` in `xml` (S3's answers nest no element in one of the same name). */
const elements = (xml: string, tag: string): string[] => [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => match[1]!);

/** The decoded text of the first `<tag>` in `xml`, or undefined. */
function text(xml: string, tag: string): string | undefined {
  const [first] = elements(xml, tag);
  return first === undefined ? undefined : decodeXml(first);
}

/** `{ name: value }` with the entries whose value is undefined left out, as the SDK's outputs do. */
function defined<T extends object>(fields: T): T {
  for (const key of Object.keys(fields) as (keyof T)[]) if (fields[key] === undefined) delete fields[key];
  return fields;
}

/** The error an answer stands for: its `<Code>` names it, else its status (a HEAD has no body). */
function s3Error(response: RawResponse, $metadata: ResponseMetadata, status: number): AwsServiceError {
  const xml = response.body.toString('utf8');
  const code = text(xml, 'Code');
  return serviceError(
    {
      name: code ?? (status === 404 ? 'NotFound' : 'Unknown'),
      message: text(xml, 'Message') ?? `S3 answered ${status}${code === undefined ? ' without an error code' : ''}`,
      status,
      $metadata: defined({ ...$metadata, httpStatusCode: status, requestId: $metadata.requestId ?? text(xml, 'RequestId') }),
    },
    ERRORS,
  );
}

function objectHeaders(response: RawResponse, $metadata: ResponseMetadata): ObjectHeaders {
  const { headers } = response;
  const length = header(headers, 'content-length');
  const modified = header(headers, 'last-modified');
  const metadata = Object.entries(headers)
    .filter(([name]) => name.startsWith('x-amz-meta-'))
    .map(([name, value]) => [name.slice('x-amz-meta-'.length), Array.isArray(value) ? value.join(', ') : value!] as const);
  return defined({
    ContentLength: length === undefined ? undefined : Number(length),
    ContentType: header(headers, 'content-type'),
    ETag: header(headers, 'etag'),
    LastModified: modified === undefined ? undefined : new Date(modified),
    Metadata: Object.fromEntries(metadata),
    $metadata,
  });
}

function read(operation: Operation, response: RawResponse, $metadata: ResponseMetadata): S3Command['__output'] {
  const { status, body } = response;
  if (status < 200 || status >= 300) throw s3Error(response, $metadata, status);
  // The SDK's reading of a 2xx that is not a success (GetObject's body is the object's own bytes).
  if (operation === 'CopyObject' && body.length === 0) {
    throw new AwsServiceError({ name: 'InternalError', message: 'S3 aborted request', $fault: 'server', $metadata: { ...$metadata, httpStatusCode: 503 } });
  }
  if (operation !== 'GetObject' && body.subarray(-16).toString('utf8').endsWith('</Error>')) throw s3Error(response, $metadata, 503);
  const xml = () => body.toString('utf8');
  switch (operation) {
    case 'HeadObject':
      return objectHeaders(response, $metadata);
    case 'GetObject':
      return { ...objectHeaders(response, $metadata), Body: body };
    case 'PutObject':
      return defined({ ETag: header(response.headers, 'etag'), VersionId: header(response.headers, 'x-amz-version-id'), $metadata });
    case 'CopyObject': {
      const modified = text(xml(), 'LastModified');
      return { CopyObjectResult: defined({ ETag: text(xml(), 'ETag'), LastModified: modified === undefined ? undefined : new Date(modified) }), $metadata };
    }
    case 'DeleteObject':
      return { $metadata };
    case 'DeleteObjects': {
      const deleted = elements(xml(), 'Deleted').map((entry) => defined({ Key: text(entry, 'Key') }));
      const errors = elements(xml(), 'Error').map((entry) => defined({ Key: text(entry, 'Key'), Code: text(entry, 'Code'), Message: text(entry, 'Message') }));
      return defined({ Deleted: deleted.length > 0 ? deleted : undefined, Errors: errors.length > 0 ? errors : undefined, $metadata });
    }
  }
}

// ---- The client ---------------------------------------------------------------------------------

export class S3Client {
  private readonly settings: AwsClientSettings;
  private readonly transport: AwsTransport;
  constructor(settings: AwsClientSettings) {
    this.settings = settings;
    this.transport = new AwsTransport(settings, 's3');
  }

  /** Closes the idle connections. */
  destroy(): void {
    this.transport.destroy();
  }

  /** Sends one command; resolves to its output with `$metadata`, or throws the SDK-shaped error. */
  async send<C extends S3Command>(command: C): Promise<C['__output']> {
    const planned = plan(command);
    return this.transport.call(
      async () => signPlanned(planned, this.settings, await this.settings.credentials(), new Date()),
      (response, $metadata) => read(command.operation, response, $metadata) as C['__output'],
    );
  }
}
