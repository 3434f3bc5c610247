import type { Readable } from 'node:stream';

/** Fails with `tooLarge(limit)` past `limit` bytes, destroying the stream so the upstream closes rather than drains. */
export async function collect(stream: Readable, limit: number, tooLarge: (limitBytes: number) => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > limit) {
      const error = tooLarge(limit);
      stream.destroy();
      throw error;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}
