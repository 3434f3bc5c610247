/**
 * The media proxy as deployed: Lambda behind an HTTP API cannot stream, so the runtime buffers
 * (streaming: false) and the 6 MB response limit (4.5 MB of bytes before base64) applies.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_MAX_BINARY_BYTES } from '#shared/http/reply.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { startMediaUpstream, type MediaUpstream } from '../support/media-upstream.ts';

let upstream: MediaUpstream;
let runtime: TestRuntime;

const bytes = (size: number, seed = 1) => {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 13 + seed) & 0xff;
  return out;
};
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PHOTO = bytes(300_000);
const OVER = LAMBDA_MAX_BINARY_BYTES + 1;

beforeAll(async () => {
  upstream = await startMediaUpstream();
  Object.assign(process.env, upstream.env);
  delete process.env.MEDIA_PROXY_MAX_BYTES;
  runtime = await startTestRuntime({ streaming: false });
  upstream.on('https://pbs.twimg.com/media/photo.jpg', { headers: { 'content-type': 'image/jpeg', 'content-length': String(PHOTO.length) }, body: PHOTO });
  upstream.on('https://video.twimg.com/big.mp4', { headers: { 'content-type': 'video/mp4', 'content-length': String(OVER) }, body: bytes(OVER) });
  upstream.on('https://video.twimg.com/big-chunked.mp4', {
    headers: { 'content-type': 'video/mp4' },
    chunks: Array.from({ length: 70 }, (_, i) => bytes(65_536, i)),
  });
});

afterAll(async () => {
  await runtime?.dispose();
  await upstream?.close();
});

const proxy = (url: string) => fetch(`${runtime.url}/api/image-proxy?url=${encodeURIComponent(url)}`);

describe('GET /api/image-proxy on Lambda (buffered)', () => {
  it('relays an image through the base64 response path unchanged', async () => {
    const response = await proxy('https://pbs.twimg.com/media/photo.jpg');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('content-length')).toBe(String(PHOTO.length));
    expect(sha(Buffer.from(await response.arrayBuffer()))).toBe(sha(PHOTO));
  });

  it.each([
    ['declares', 'https://video.twimg.com/big.mp4'],
    ['streams without declaring', 'https://video.twimg.com/big-chunked.mp4'],
  ])('answers media that %s more than a Lambda response holds with 502 and a hint', async (_case, url) => {
    const response = await proxy(url);

    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: 'Upstream request failed',
      code: 'upstream_failed',
      message: 'Upstream request failed',
      hint: expect.stringMatching(/4500000 bytes, the most a response of this deployment can carry .* Range header/),
      status: 502,
      documentation: `${runtime.url}/docs/errors#upstream_failed`,
    });
  });
});
