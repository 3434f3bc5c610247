/** The upstream and client of the media-proxy bench; run as a child process, this file answers over IPC. */
import '../../test/support/env.ts';
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, get as httpGet } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, get as httpsGet } from 'node:https';
import { startMediaUpstream } from '../../test/support/media-upstream.ts';
import type { MediaUpstream } from '../../test/support/media-upstream.ts';

export const CONCURRENCY = 4;
const MIB = 1024 * 1024;
export const FAST_URL = 'https://video.twimg.com/bench/fast.mp4';
export const PACED_URL = 'https://video.twimg.com/bench/paced.mp4';

/** Serves the bench's 4 MiB file, unpaced and paced. */
export async function startBenchUpstream(): Promise<MediaUpstream> {
  const upstream = await startMediaUpstream();
  const file = Buffer.alloc(4 * MIB);
  for (let i = 0; i < file.length; i++) file[i] = (i * 131) & 0xff;
  const headers = { 'content-type': 'video/mp4', 'content-length': String(file.length), 'cache-control': 'max-age=604800' };
  upstream.on(FAST_URL, { headers, body: file });
  // 256 KiB every 12.5 ms: 20 MiB/s per connection.
  const slices = Array.from({ length: file.length / (256 * 1024) }, (_, i) => file.subarray(i * 256 * 1024, (i + 1) * 256 * 1024));
  upstream.on(PACED_URL, { headers, chunks: slices, chunkDelayMs: 12.5 });
  return upstream;
}

export interface FetchJob {
  via: 'direct' | 'proxy';
  url: string;
  requests: number;
}

export interface FetchResult {
  mibPerSecond: number;
  cpuMsPerMib: number;
}

function drain(res: IncomingMessage): Promise<number> {
  return new Promise((resolve, reject) => {
    let size = 0;
    if (res.statusCode !== 200) {
      // The envelope says why (an upstream the proxy could not reach, a limit).
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => reject(new Error(`status ${res.statusCode}: ${text.slice(0, 500)}`)));
      return;
    }
    res.on('data', (chunk: Buffer) => (size += chunk.length));
    res.on('end', () => resolve(size));
    res.on('error', reject);
  });
}

/** Fetches through the proxy (HTTP) or straight from the upstream (HTTPS): MiB/s and its CPU per MiB. */
export function createBenchClient(target: { proxyUrl: string; upstreamPort: number; caFile: string }) {
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: CONCURRENCY });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: CONCURRENCY, ca: readFileSync(target.caFile, 'utf8') });
  const once = (job: FetchJob) =>
    new Promise<number>((resolve, reject) => {
      if (job.via === 'proxy') {
        httpGet(
          `${target.proxyUrl}/api/image-proxy?url=${encodeURIComponent(job.url)}`,
          { agent: httpAgent },
          (res) => void drain(res).then(resolve, reject),
        ).on('error', reject);
        return;
      }
      const { host, pathname } = new URL(job.url);
      httpsGet(
        { host: '127.0.0.1', port: target.upstreamPort, servername: host, headers: { host }, path: pathname, agent: httpsAgent },
        (res) => void drain(res).then(resolve, reject),
      ).on('error', reject);
    });
  return {
    async fetch(job: FetchJob): Promise<FetchResult> {
      let next = 0;
      let bytes = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next++ < job.requests) {
            // Not `bytes += await …`: that reads `bytes` before awaiting and loses the other workers' sums.
            const size = await once(job);
            bytes += size;
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      return { mibPerSecond: bytes / MIB / ((performance.now() - started) / 1000), cpuMsPerMib: (used.user + used.system) / 1000 / (bytes / MIB) };
    },
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

type Message = { role: 'upstream' } | { role: 'client'; target: Parameters<typeof createBenchClient>[0] } | { job: FetchJob } | { stop: true };

// As a child process: the role named by the first message, then jobs until told to stop.
if (process.send && process.argv[1] === new URL(import.meta.url).pathname) {
  let upstream: MediaUpstream | undefined;
  let client: ReturnType<typeof createBenchClient> | undefined;
  process.on('message', (message: Message) => {
    void (async () => {
      if ('role' in message && message.role === 'upstream') {
        upstream = await startBenchUpstream();
        process.send!({ env: upstream.env, port: upstream.server.port });
      } else if ('role' in message) {
        client = createBenchClient(message.target);
        process.send!({ ready: true });
      } else if ('job' in message) {
        process.send!(await client!.fetch(message.job));
      } else {
        client?.close();
        await upstream?.close();
        process.exit(0);
      }
    })();
  });
}
