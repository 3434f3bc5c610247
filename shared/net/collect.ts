import type { Readable } from 'node:stream';

/**
 * Reads a stream into memory, failing with `tooLarge(limit)` as soon as it passes `limit` bytes
 * (the stream is destroyed, so the upstream connection closes instead of draining).
 */
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
