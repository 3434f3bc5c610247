/** Asset bytes in the assets bucket: the checks and copies of completion and deletion. */
import { createHash } from 'node:crypto';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { copySource } from '#shared/aws/s3.ts';
import { guard } from '#shared/store/outage.ts';

const WHAT = 'Asset storage';

/** HeadObject answers NotFound, GetObject NoSuchKey; both are 404. */
function isMissingObject(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}

export class AssetObjectStore {
  private readonly s3: S3Client;
  private readonly bucket: string;

  constructor(deps: { s3: S3Client; bucket: string }) {
    this.s3 = deps.s3;
    this.bucket = deps.bucket;
  }

  /** Size and type of an object, or undefined when there is none. */
  async head(key: string): Promise<{ bytes: number | undefined; contentType: string | undefined } | undefined> {
    const head = await guard(WHAT, () => this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))).catch((error: unknown) => {
      if (isMissingObject(error)) return undefined;
      throw error;
    });
    return head && { bytes: head.ContentLength, contentType: head.ContentType };
  }

  /** SHA-256 of the bytes as read and that version's ETag; a body that breaks mid-read is an outage too. */
  sha256(key: string): Promise<{ sha256: string; etag: string | undefined }> {
    return guard(WHAT, async () => {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const hash = createHash('sha256');
      for await (const chunk of object.Body as AsyncIterable<Uint8Array>) hash.update(chunk);
      return { sha256: hash.digest('hex'), etag: object.ETag };
    });
  }

  async copy(from: string, to: string, contentType: string): Promise<string | undefined> {
    const copied = await guard(WHAT, () =>
      this.s3.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: copySource(this.bucket, from),
          ContentType: contentType,
          MetadataDirective: 'REPLACE',
        }),
      ),
    );
    return copied.CopyObjectResult?.ETag;
  }

  /** Writes an object the service made (a release shot); the same key again replaces it. */
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await guard(WHAT, () => this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType })));
  }

  /** An object's bytes, or undefined when there is none. */
  async read(key: string): Promise<Uint8Array | undefined> {
    return guard(WHAT, async () => {
      try {
        const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
        return await object.Body!.transformToByteArray();
      } catch (error) {
        if (isMissingObject(error)) return undefined;
        throw error;
      }
    });
  }

  /** Deletes an object; deleting one that is not there succeeds. */
  async delete(key: string): Promise<void> {
    await guard(WHAT, () => this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }
}
