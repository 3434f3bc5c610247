/**
 * What the capture cache's object costs per miss: its PUT, and its storage until the bucket's
 * lifecycle expires it, in S3 Standard or S3 Express One Zone, at the PNG sizes captures have.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUCKETS, EXPRESS_CACHE } from '#shared/resources.ts';
import { photoLike, screenshotLike } from '../../test/support/images.ts';
import type { BenchTable } from './report.ts';

/** What a capture miss may cost, per million. */
const CAPTURE_MISS_GOAL = 10;

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

const dollars = (value: number) => `$${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}`;

/**
 * Per PNG size, the cache object in each place and a whole miss: `miss` is the rest of it (Lambda,
 * the HTTP API, DynamoDB) at `memory` MB. With a cacheZone the stack keeps PNGs under
 * EXPRESS_CACHE.maxBytes in Express One Zone; the goal is judged on that.
 */
export function cacheTable(sizes: { label: string; bytes: number }[], miss: { total: number; warmMs: number; memory: number }): BenchTable {
  return {
    title: `The capture cache per million misses: the PNG's PUT and its storage until the lifecycle expires it (${KEPT_DAYS} days on average), by where it is kept`,
    columns: [
      'capture',
      'PNG KB',
      'S3 Standard',
      'of it storage',
      'kept 7.5 days',
      'S3 Express One Zone',
      'cheaper',
      'miss, Standard',
      'miss, with cacheZone',
      'goal',
      'result',
    ],
    rows: sizes.map(({ label, bytes }) => {
      const standard = objectCost(bytes, 'standard');
      const express = objectCost(bytes, 'express');
      const zoned = miss.total + (bytes < EXPRESS_CACHE.maxBytes ? express.total : standard.total);
      return [
        label,
        Math.round(bytes / 1024),
        dollars(standard.total),
        dollars(standard.storage),
        dollars(objectCost(bytes, 'standard', 7.5).total),
        dollars(express.total),
        cheaperTier(bytes) === 'express' ? 'Express One Zone' : 'Standard',
        dollars(miss.total + standard.total),
        dollars(zoned),
        `≤ $${CAPTURE_MISS_GOAL}`,
        zoned <= CAPTURE_MISS_GOAL ? 'met' : 'MISSED',
      ];
    }),
    notes: [
      `Express One Zone costs less under ${Math.round(expressBreakEvenBytes() / 1024)} KB: its PUT is $0.00113 per 1,000 against $0.005, its storage $0.11 per GB-month against $0.023, and it bills $0.0032 per GB uploaded.`,
      `"miss": the ${miss.warmMs.toFixed(0)} ms warm capture at ${miss.memory} MB with its requests and table writes (${dollars(miss.total)}), plus the cache object: in the cache bucket (S3 Standard, 1-day expiry),`,
      `or with the cacheZone context in S3 Express One Zone under ${EXPRESS_CACHE.maxBytes / 1024} KB. "kept 7.5 days": Standard under the 7-day expiry it had.`,
      'A deployment stores what its users capture: these sizes are loopback pages (a photograph, a busy interface, text, a dashboard, a tall page).',
    ],
  };
}
