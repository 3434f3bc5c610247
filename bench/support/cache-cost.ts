/**
 * What the capture cache's object costs per miss: its PUT, and its storage until the bucket's
 * lifecycle expires it, in S3 Standard or S3 Express One Zone, at the PNG sizes captures have.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUCKETS } from '#shared/resources.ts';
import { photoLike, screenshotLike } from '../../test/support/images.ts';

/** us-east-1 list prices (aws.amazon.com/s3/pricing, the S3 FAQ's Express One Zone examples), noted 2026-11-28. */
export const S3_PRICES = {
  standard: { put: 0.005 / 1000, gbMonth: 0.023, uploadGb: 0 },
  express: { put: 0.00113 / 1000, gbMonth: 0.11, uploadGb: 0.0032 },
} as const;
export type Tier = keyof typeof S3_PRICES;

const GB = 2 ** 30;
const DAYS_PER_MONTH = 365 / 12;
/**
 * S3 expires an object at the first midnight UTC at least `expireAfterDays` after it was written:
 * captures spread over the day are kept that long plus half a day on average.
 */
export const KEPT_DAYS = BUCKETS.cache.expireAfterDays + 0.5;

/** Dollars per million misses for the cache object of a `bytes` PNG kept `days`. */
export function objectCost(bytes: number, tier: Tier, days = KEPT_DAYS): { put: number; storage: number; upload: number; total: number } {
  const price = S3_PRICES[tier];
  const put = price.put * 1e6;
  const storage = (bytes / GB) * price.gbMonth * (days / DAYS_PER_MONTH) * 1e6;
  const upload = (bytes / GB) * price.uploadGb * 1e6;
  return { put, storage, upload, total: put + storage + upload };
}

/** The size under which Express One Zone costs less per miss than Standard. */
export function expressBreakEvenBytes(days = KEPT_DAYS): number {
  const perByte = (tier: Tier) => (objectCost(GB, tier, days).total - objectCost(0, tier, days).total) / GB;
  return (objectCost(0, 'standard', days).total - objectCost(0, 'express', days).total) / (perByte('express') - perByte('standard'));
}

/** The cheaper place for a PNG of `bytes`. */
export const cheaperTier = (bytes: number): Tier => (bytes < expressBreakEvenBytes() ? 'express' : 'standard');

/** Loopback pages showing a photograph and a busy interface at 1920×1080, whose captures are as large as such pages' are. */
export async function startPicturePages(): Promise<{ origin: string; port: number; close(): Promise<void> }> {
  const pictures: Record<string, Buffer> = { '/photo.png': await photoLike(), '/interface.png': await screenshotLike() };
  const server = createServer((req, res) => {
    const picture = pictures[req.url ?? ''];
    if (picture) return void res.writeHead(200, { 'content-type': 'image/png' }).end(picture);
    const name = req.url === '/photo' ? '/photo.png' : '/interface.png';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<body style="margin:0"><img src="${name}" style="display:block;width:100vw;height:100vh"></body>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** PNG bytes of each capture, through the running server's POST /api/screenshot. */
export async function captureSizes(baseUrl: string, pages: { label: string; body: Record<string, unknown> }[]): Promise<{ label: string; bytes: number }[]> {
  const sizes: { label: string; bytes: number }[] = [];
  for (const page of pages) {
    const answer = await fetch(`${baseUrl}/api/screenshot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...page.body, forceRefresh: true }),
    });
    const body = (await answer.json()) as { screenshot?: string };
    if (!answer.ok || !body.screenshot) throw new Error(`${page.label}: capture answered ${answer.status}`);
    sizes.push({ label: page.label, bytes: Buffer.from(body.screenshot, 'base64').length });
  }
  return sizes;
}
