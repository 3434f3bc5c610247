/**
 * Presigned S3 URLs without the SDK: the URL `getSignedUrl` of `@aws-sdk/s3-request-presigner`
 * gives for a PutObject or GetObject, character for character (test/unit/aws-s3-presigner.test.ts),
 * in a few KB instead of the ≈320 KB that the S3 client and the SDK's presigner add to a bundle.
 * A presigned URL needs no request to S3, so the routes that only hand out URLs carry no S3
 * client at all.
 *
 * As the SDK does: the payload is `UNSIGNED-PAYLOAD` (whoever sends the URL sends the body), named
 * in the query as `X-Amz-Content-Sha256`; the key is RFC 3986-encoded segment by segment, its
 * slashes kept; `x-id` names the operation. With an endpoint (the embedded S3) the bucket goes
 * in the path, as the S3 client of wiring/s3.ts has it (`forcePathStyle`); on AWS it goes in the
 * host name, `https://{bucket}.s3.{region}.amazonaws.com`, when it is a valid host label.
 */
import { presign, uriEscape, type CredentialProvider } from '#shared/aws/sigv4.ts';

export interface S3PresignerSettings {
  region: string;
  /** Origin of an S3-compatible server, addressed path-style; S3's regional endpoint when absent. */
  endpoint?: string;
  credentials: CredentialProvider;
}

export interface PresignOptions {
  expiresIn: number;
  /** The date the signature carries; now when absent. */
  signingDate?: Date;
}

export interface PutObjectPresign {
  bucket: string;
  key: string;
  /** Signed: the upload must be sent with this Content-Type. */
  contentType: string;
  /** Signed: the upload must be sent with this Content-Length. */
  contentLength: number;
  /** Base64 SHA-256 of the body, signed as the `x-amz-checksum-sha256` header the upload must carry. */
  checksumSha256?: string;
}

export interface GetObjectPresign {
  bucket: string;
  key: string;
  /** The Content-Type S3 answers with (`response-content-type`). */
  responseContentType?: string;
  /** The Content-Disposition S3 answers with (`response-content-disposition`). */
  responseContentDisposition?: string;
}

/** DNS suffixes of the partitions other than `aws` (amazonaws.com), by region prefix. */
const PARTITION_SUFFIXES: [RegExp, string][] = [
  [/^cn-\w+-\d+$/, 'amazonaws.com.cn'],
  [/^eusc-de-\w+-\d+$/, 'amazonaws.eu'],
  [/^us-iso-\w+-\d+$/, 'c2s.ic.gov'],
  [/^us-isob-\w+-\d+$/, 'sc2s.sgov.gov'],
  [/^eu-isoe-\w+-\d+$/, 'cloud.adc-e.uk'],
  [/^us-isof-\w+-\d+$/, 'csp.hci.ic.gov'],
];

/** A bucket name that can be a host label: otherwise the SDK, too, puts it in the path. */
const VIRTUAL_HOSTABLE = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

const encodeKey = (key: string): string => key.split('/').map(uriEscape).join('/');

export class S3Presigner {
  private readonly region: string;
  private readonly endpoint: URL | undefined;
  private readonly credentials: CredentialProvider;

  constructor(settings: S3PresignerSettings) {
    this.region = settings.region;
    this.endpoint = settings.endpoint === undefined ? undefined : new URL(settings.endpoint);
    this.credentials = settings.credentials;
  }

  /** A URL that PUTs one object, with the content type, length and checksum given as signed headers. */
  presignPutObject(input: PutObjectPresign, options: PresignOptions): Promise<string> {
    const headers: Record<string, string> = { 'content-length': String(input.contentLength), 'content-type': input.contentType };
    if (input.checksumSha256 !== undefined) headers['x-amz-checksum-sha256'] = input.checksumSha256;
    return this.url('PUT', input.bucket, input.key, { 'x-id': 'PutObject' }, headers, options);
  }

  /** A URL that GETs one object, answered with the given type and disposition. */
  presignGetObject(input: GetObjectPresign, options: PresignOptions): Promise<string> {
    const query: Record<string, string> = { 'x-id': 'GetObject' };
    if (input.responseContentType !== undefined) query['response-content-type'] = input.responseContentType;
    if (input.responseContentDisposition !== undefined) query['response-content-disposition'] = input.responseContentDisposition;
    return this.url('GET', input.bucket, input.key, query, {}, options);
  }

  private async url(
    method: string,
    bucket: string,
    key: string,
    query: Record<string, string>,
    headers: Record<string, string>,
    options: PresignOptions,
  ): Promise<string> {
    const { origin, host, path } = this.locate(bucket, key);
    const credentials = await this.credentials();
    const queryString = presign(
      { method, host, path, query: { ...query, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' }, headers, payloadHash: 'UNSIGNED-PAYLOAD' },
      credentials,
      { region: this.region, service: 's3' },
      options.expiresIn,
      options.signingDate,
    );
    return `${origin}${path}?${queryString}`;
  }

  /** Where the object is: the URL's origin, the Host header and the encoded path. */
  private locate(bucket: string, key: string): { origin: string; host: string; path: string } {
    if (this.endpoint) {
      const base = this.endpoint.pathname.replace(/\/$/, '');
      return { origin: this.endpoint.origin, host: this.endpoint.host, path: `${base}/${uriEscape(bucket)}/${encodeKey(key)}` };
    }
    const suffix = PARTITION_SUFFIXES.find(([pattern]) => pattern.test(this.region))?.[1] ?? 'amazonaws.com';
    const regional = `s3.${this.region}.${suffix}`;
    if (VIRTUAL_HOSTABLE.test(bucket)) {
      const host = `${bucket}.${regional}`;
      return { origin: `https://${host}`, host, path: `/${encodeKey(key)}` };
    }
    return { origin: `https://${regional}`, host: regional, path: `/${uriEscape(bucket)}/${encodeKey(key)}` };
  }
}
