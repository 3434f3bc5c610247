/**
 * Media proxy throughput: the same file fetched through GET /api/image-proxy on the local runtime
 * (streaming) and directly from the same local HTTPS upstream, over keep-alive connections with
 * the same concurrency (goal: proxy ≥ 0.8× direct). Two upstreams:
 *
 * - paced at 20 MB/s per connection, like a CDN edge seen from a Lambda: the question users
 *   feel, whether the proxy slows delivery down;
 * - unpaced loopback, where CPU is the limit: everything shares this process, and the proxy
 *   decrypts the same TLS bytes the direct client does and then relays them over one more
 *   hop, so this ratio shows the relay's CPU cost rather than anything a client would wait for.
 */
import '../test/support/env.ts';
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, get as httpGet } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, get as httpsGet } from 'node:https';
import { startTestRuntime } from '../test/support/local.ts';
import { startMediaUpstream } from '../test/support/media-upstream.ts';
import { median, table } from './lib/measure.ts';

const CONCURRENCY = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MIB = 1024 * 1024;

function drain(res: IncomingMessage): Promise<number> {
  return new Promise((resolve, reject) => {
    let size = 0;
    if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
    res.on('data', (chunk: Buffer) => (size += chunk.length));
    res.on('end', () => resolve(size));
    res.on('error', reject);
  });
}

/** Fetches `requests` times with CONCURRENCY in flight; returns MB/s (MiB per second). */
async function throughput(fetchOnce: () => Promise<number>, requests: number): Promise<number> {
  let next = 0;
  let bytes = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < requests) {
        // Not `bytes += await …`: that reads `bytes` before awaiting and loses the other workers' sums.
        const size = await fetchOnce();
        bytes += size;
      }
    }),
  );
  return bytes / MIB / ((performance.now() - started) / 1000);
}

export async function run(): Promise<void> {
  const upstream = await startMediaUpstream();
  const file = Buffer.alloc(4 * MIB);
  for (let i = 0; i < file.length; i++) file[i] = (i * 131) & 0xff;
  const headers = { 'content-type': 'video/mp4', 'content-length': String(file.length), 'cache-control': 'max-age=604800' };
  upstream.on('https://video.twimg.com/bench/fast.mp4', { headers, body: file });
  // 256 KiB every 12.5 ms: 20 MiB/s per connection.
  const slices = Array.from({ length: file.length / (256 * 1024) }, (_, i) => file.subarray(i * 256 * 1024, (i + 1) * 256 * 1024));
  upstream.on('https://video.twimg.com/bench/paced.mp4', { headers, chunks: slices, chunkDelayMs: 12.5 });

  Object.assign(process.env, upstream.env, { LOG_LEVEL: 'silent' });
  const runtime = await startTestRuntime();
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: CONCURRENCY });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: CONCURRENCY, ca: readFileSync(upstream.env.UNSAFE_TEST_MEDIA_CA_FILE!, 'utf8') });
  const proxied = (url: string) => () =>
    new Promise<number>((resolve, reject) => {
      httpGet(`${runtime.url}/api/image-proxy?url=${encodeURIComponent(url)}`, { agent: httpAgent }, (res) => void drain(res).then(resolve, reject)).on('error', reject);
    });
  const direct = (url: string) => () =>
    new Promise<number>((resolve, reject) => {
      const { host, pathname } = new URL(url);
      httpsGet({ host: '127.0.0.1', port: upstream.server.port, servername: host, headers: { host }, path: pathname, agent: httpsAgent }, (res) =>
        void drain(res).then(resolve, reject),
      ).on('error', reject);
    });

  try {
    const rows: string[][] = [];
    for (const [label, url, requests] of [
      ['paced upstream, 20 MB/s per connection', 'https://video.twimg.com/bench/paced.mp4', 16],
      ['unpaced loopback upstream (CPU-bound)', 'https://video.twimg.com/bench/fast.mp4', 48],
    ] as const) {
      const results = { direct: [] as number[], proxy: [] as number[] };
      await throughput(direct(url), CONCURRENCY);
      await throughput(proxied(url), CONCURRENCY);
      for (let round = 0; round < ROUNDS; round++) {
        // Interleaved rounds: drift on a shared machine hits both paths alike.
        results.direct.push(await throughput(direct(url), requests));
        results.proxy.push(await throughput(proxied(url), requests));
      }
      const [d, p] = [median(results.direct), median(results.proxy)];
      rows.push([label, `${d.toFixed(0)} MB/s`, `${p.toFixed(0)} MB/s`, `${(p / d).toFixed(2)}×`, p / d >= 0.8 ? 'yes' : 'NO']);
    }
    process.stdout.write(`4 MiB file, ${CONCURRENCY} requests in flight over keep-alive connections, median of ${ROUNDS} interleaved rounds; upstream, proxy and client share this process.\n\n`);
    table(['upstream', 'direct HTTPS', 'via /api/image-proxy', 'ratio', '≥ 0.8×'], rows);
  } finally {
    httpAgent.destroy();
    httpsAgent.destroy();
    await runtime.dispose();
    await upstream.close();
  }
}
