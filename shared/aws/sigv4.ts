/**
 * AWS Signature Version 4 for a request with its body in hand (the JSON protocols: DynamoDB),
 * as https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html describes it.
 * test/unit/aws-sigv4.test.ts checks every header against the SDK's own signer.
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
  /** Already URI-encoded path, e.g. "/". */
  path: string;
  /** Headers to send and sign (names in lower case); `host`, `x-amz-date` and the token are added. */
  headers: Record<string, string>;
  body: string;
}

const sha256Hex = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
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
  const day = stamp.slice(0, 8);
  const headers: Record<string, string> = { ...request.headers, host: request.host, 'x-amz-date': stamp };
  if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonical = [
    request.method,
    request.path,
    '', // no query string
    ...names.map((name) => `${name}:${headers[name]!.trim().replace(/\s+/g, ' ')}`),
    '',
    signedHeaders,
    sha256Hex(request.body),
  ].join('\n');
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', stamp, credentialScope, sha256Hex(canonical)].join('\n');
  const signature = createHmac('sha256', signingKey(credentials.secretAccessKey, day, scope.region, scope.service))
    .update(toSign, 'utf8')
    .digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
