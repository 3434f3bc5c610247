/**
 * Presigned S3 URLs without the SDK: the URL `getSignedUrl` of `@aws-sdk/s3-request-presigner`
 * gives for a PutObject or GetObject, character for character (test/unit/aws-s3-presigner.test.ts),
 * in a few KB instead of the ≈320 KB that the S3 client and the SDK's presigner add to a bundle.
 * A presigned URL needs no request to S3, so the routes that only hand out URLs carry no S3
 * client at all.
 *
 * As the SDK does: the payload is `UNSIGNED-PAYLOAD` (whoever sends the URL sends the body), named
 * in the query as `X-Amz-Content-Sha256`; `x-id` names the operation; the object is addressed as
 * the S3 client of wiring/s3.ts addresses it (s3-address.ts: path-style with an endpoint,
 * virtual-hosted on AWS).
 */
import { s3Address } from '#shared/aws/s3-address.ts';
import { presign, type CredentialProvider } from '#shared/aws/sigv4.ts';

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
    const { origin, host, path } = s3Address(this.region, this.endpoint, bucket, key);
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
}
