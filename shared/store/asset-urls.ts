/**
 * Presigned URLs of the assets bucket, for the browser: signed here, sent by the browser, so
 * no request reaches S3 and no S3 client is involved (aws/s3-presigner.ts). The checks and
 * copies of completion and deletion, which do talk to S3, are in asset-objects.ts.
 */
import type { S3Presigner } from '#shared/aws/s3-presigner.ts';

export class AssetUrlSigner {
  private readonly presigner: S3Presigner;
  private readonly bucket: string;

  constructor(deps: { presigner: S3Presigner; bucket: string }) {
    this.presigner = deps.presigner;
    this.bucket = deps.bucket;
  }

  /**
   * A presigned PUT bound to the content type, length and (when given) SHA-256, so S3 refuses
   * any other upload to that URL.
   */
  signUpload(key: string, upload: { contentType: string; bytes: number; checksum?: string }, expiresIn: number): Promise<string> {
    return this.presigner.presignPutObject(
      {
        bucket: this.bucket,
        key,
        contentType: upload.contentType,
        contentLength: upload.bytes,
        ...(upload.checksum ? { checksumSha256: upload.checksum } : {}),
      },
      { expiresIn },
    );
  }

  /** A presigned GET that answers with the given type and Content-Disposition. */
  signDownload(key: string, response: { contentType: string; disposition: string }, expiresIn: number): Promise<string> {
    return this.presigner.presignGetObject(
      { bucket: this.bucket, key, responseContentType: response.contentType, responseContentDisposition: response.disposition },
      { expiresIn },
    );
  }
}
