/**
 * AWS Signature Version 4, as https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 * describes it: in headers, for a request with its body in hand (the JSON protocols, S3's requests), and
 * in the query string, for a URL someone else sends later (S3's presigned URLs, aws/s3-presigner.ts).
 * test/unit/aws-sigv4.test.ts checks the headers against the SDK's own signer,
 * test/unit/aws-s3-presigner.test.ts the URLs against the SDK's presigner.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** When temporary credentials stop working; absent for long-lived ones. */
  expiration?: Date;
}

/** Where credentials come from: called before each request, so it must cache (see aws/credentials.ts). */
export type CredentialProvider = () => Promise<AwsCredentials>;

export interface SignableRequest {
  method: string;
  /** Host header value: the host name, with `:port` when the port is not the scheme's default. */
  host: string;
  /** Already URI-encoded path, e.g. "/", signed as given (S3's rule: no normalising, no second encoding). */
  path: string;
  /** Query parameters, not encoded (S3's `x-id`, `delete`); none when absent. */
  query?: Record<string, string>;
  /** Headers to send and sign (names in lower case); `host`, `x-amz-date` and the token are added. */
  headers: Record<string, string>;
  body: string | Buffer;
  /** Hex SHA-256 of the body when the caller has it already (S3 sends it as `x-amz-content-sha256`). */
  payloadHash?: string;
}

/** Query-string signing: a URL is good for at most a week. */
const MAX_EXPIRES_SECONDS = 7 * 24 * 60 * 60;

/** Hex SHA-256 of a body. */
export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** One signing key per day, region and service: four HMACs, computed once and reused. */
const keys = new Map<string, Buffer>();

function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  const id = `${secret}\n${day}\n${region}\n${service}`;
  let key = keys.get(id);
  if (!key) {
    key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
    if (keys.size > 16) keys.clear();
    keys.set(id, key);
  }
  return key;
}

/** `20261123T193422Z` of a date. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** RFC 3986 percent-encoding: every byte but A–Z a–z 0–9 - . _ ~ (encodeURIComponent leaves ! ' ( ) * bare). */
export function uriEscape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The canonical form of headers (names in lower case): the `name:value` lines and the signed-header list. */
function canonicalHeaders(headers: Record<string, string>): { lines: string[]; signedHeaders: string } {
  const names = Object.keys(headers).sort();
  return { lines: names.map((name) => `${name}:${headers[name]!.trim().replace(/\s+/g, ' ')}`), signedHeaders: names.join(';') };
}

const credentialScope = (day: string, scope: { region: string; service: string }): string => `${day}/${scope.region}/${scope.service}/aws4_request`;

/** Encoded `name=value` pairs sorted by encoded name and joined, as the canonical request and the SDK's URLs have them. */
function queryString(pairs: readonly (readonly [string, string])[]): string {
  return [...pairs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** The canonical (and sent) query string of parameters that are not encoded yet. */
export function canonicalQuery(query: Record<string, string>): string {
  return queryString(Object.entries(query).map(([name, value]) => [uriEscape(name), uriEscape(value)] as const));
}

/** The hex signature of a canonical request, dated `stamp`. */
function signature(canonical: string, credentials: AwsCredentials, scope: { region: string; service: string }, stamp: string): string {
  const day = stamp.slice(0, 8);
  const toSign = ['AWS4-HMAC-SHA256', stamp, credentialScope(day, scope), sha256Hex(canonical)].join('\n');
  return createHmac('sha256', signingKey(credentials.secretAccessKey, day, scope.region, scope.service))
    .update(toSign, 'utf8')
    .digest('hex');
}

/**
 * The headers to send: the request's own plus `host`, `x-amz-date`, `x-amz-security-token` (with
 * temporary credentials) and `authorization`, every one of them signed.
 */
export function sign(
  request: SignableRequest,
  credentials: AwsCredentials,
  scope: { region: string; service: string },
  now: Date = new Date(),
): Record<string, string> {
  const stamp = amzDate(now);
  const headers: Record<string, string> = { ...request.headers, host: request.host, 'x-amz-date': stamp };
  if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
  const { lines, signedHeaders } = canonicalHeaders(headers);
  const canonical = [
    request.method,
    request.path,
    canonicalQuery(request.query ?? {}),
    ...lines,
    '',
    signedHeaders,
    request.payloadHash ?? sha256Hex(request.body),
  ].join('\n');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${credentialScope(stamp.slice(0, 8), scope)}, SignedHeaders=${signedHeaders}, Signature=${signature(canonical, credentials, scope, stamp)}`;
  return headers;
}

export interface PresignableRequest {
  method: string;
  /** Host header value: the host name, with `:port` when the port is not the scheme's default. */
  host: string;
  /** Already URI-encoded path. */
  path: string;
  /** The request's own query parameters, not encoded; the signing ones are added. */
  query: Record<string, string>;
  /** Headers whoever sends the URL must send as given (names in lower case); `host` is added. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`. */
  payloadHash: string;
}

/**
 * The encoded query string of a presigned URL: the request's parameters plus `X-Amz-Algorithm`,
 * `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`, `X-Amz-SignedHeaders`,
 * `X-Amz-Security-Token` (with temporary credentials) and `X-Amz-Signature`, sorted by name as the
 * SDK writes them.
 */
export function presign(
  request: PresignableRequest,
  credentials: AwsCredentials,
  scope: { region: string; service: string },
  expiresInSeconds: number,
  now: Date = new Date(),
): string {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_EXPIRES_SECONDS) {
    throw new RangeError(`A presigned URL expires after 1 to ${MAX_EXPIRES_SECONDS} seconds, not ${expiresInSeconds}.`);
  }
  const stamp = amzDate(now);
  const { lines, signedHeaders } = canonicalHeaders({ ...request.headers, host: request.host });
  const query: Record<string, string> = {
    ...request.query,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${credentials.accessKeyId}/${credentialScope(stamp.slice(0, 8), scope)}`,
    'X-Amz-Date': stamp,
    'X-Amz-Expires': String(expiresInSeconds),
    'X-Amz-SignedHeaders': signedHeaders,
  };
  if (credentials.sessionToken) query['X-Amz-Security-Token'] = credentials.sessionToken;
  const pairs = Object.entries(query).map(([name, value]) => [uriEscape(name), uriEscape(value)] as const);
  // Sorted by encoded name, in the canonical request as in the URL (the SDK's order).
  const canonical = [request.method, request.path, queryString(pairs), ...lines, '', signedHeaders, request.payloadHash].join('\n');
  return queryString([...pairs, ['X-Amz-Signature', signature(canonical, credentials, scope, stamp)]]);
}
