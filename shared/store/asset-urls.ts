/** Presigned URLs of the assets bucket for the browser: signing sends no request to S3. */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export class AssetUrlSigner {
  private readonly s3: S3Client;
  private readonly bucket: string;

  constructor(deps: { s3: S3Client; bucket: string }) {
    this.s3 = deps.s3;
    this.bucket = deps.bucket;
  }

  /** A PUT bound to the content type, length and (when given) SHA-256: S3 refuses any other upload. */
  signUpload(key: string, upload: { contentType: string; bytes: number; checksum?: string }, expiresIn: number): Promise<string> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: upload.contentType,
      ContentLength: upload.bytes,
      ...(upload.checksum ? { ChecksumSHA256: upload.checksum } : {}),
    });
    return getSignedUrl(this.s3, command, {
      expiresIn,
      // Signed headers must be sent exactly as signed: S3 then refuses another type, size or checksum.
      signableHeaders: new Set(['content-type', 'content-length']),
      ...(upload.checksum ? { unhoistableHeaders: new Set(['x-amz-checksum-sha256']) } : {}),
    });
  }

  signDownload(key: string, response: { contentType: string; disposition: string }, expiresIn: number): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentType: response.contentType,
      ResponseContentDisposition: response.disposition,
    });
    return getSignedUrl(this.s3, command, { expiresIn });
  }
}
