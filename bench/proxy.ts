/**
 * Media proxy throughput against fetching the same upstream directly: paced like a CDN edge (what
 * users feel) and unpaced (CPU-bound); in one thread for all, and a process each as across machines.
 */
import '../test/support/env.ts';
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestRuntime } from '../test/support/local.ts';
import { median } from './lib/measure.ts';
import type { BenchTable } from './support/report.ts';
import { CONCURRENCY, FAST_URL, PACED_URL, createBenchClient, startBenchUpstream } from './support/proxy-roles.ts';
import type { FetchJob, FetchResult } from './support/proxy-roles.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROLES = fileURLToPath(new URL('./support/proxy-roles.ts', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message as object);
  });
}

interface Layout {
  label: string;
  upstream: { env: Record<string, string>; port: number };
  /** Points the client at the proxy, once the runtime runs. */
  connect(proxyUrl: string): Promise<unknown>;
  fetch(job: FetchJob): Promise<FetchResult>;
  close(): Promise<void>;
}

async function sameProcess(): Promise<Layout> {
  const upstream = await startBenchUpstream();
  let client: ReturnType<typeof createBenchClient> | undefined;
  return {
    label: 'one process',
    upstream: { env: upstream.env, port: upstream.server.port },
    connect: async (proxyUrl) =>
      (client = createBenchClient({ proxyUrl, upstreamPort: upstream.server.port, caFile: upstream.env.UNSAFE_TEST_MEDIA_CA_FILE! })),
    fetch: (job) => client!.fetch(job),
    close: async () => {
      client?.close();
      await upstream.close();
    },
  };
}

async function separateProcesses(): Promise<Layout> {
  const upstreamChild = fork(ROLES, [], { stdio: 'inherit' });
  const clientChild = fork(ROLES, [], { stdio: 'inherit' });
  const upstream = await ask<{ env: Record<string, string>; port: number }>(upstreamChild, { role: 'upstream' });
  return {
    label: 'a process each',
    upstream,
    connect: (proxyUrl) =>
      ask(clientChild, { role: 'client', target: { proxyUrl, upstreamPort: upstream.port, caFile: upstream.env.UNSAFE_TEST_MEDIA_CA_FILE } }),
    fetch: (job) => ask<FetchResult>(clientChild, { job }),
    close: async () => {
      for (const child of [clientChild, upstreamChild]) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.send({ stop: true });
        await exited;
      }
    },
  };
}

/** Run in a process of its own: the proxy's configuration is read once per process. */
async function measure(start: () => Promise<Layout>): Promise<string[][]> {
  const rows: string[][] = [];
  {
    const layout = await start();
    Object.assign(process.env, layout.upstream.env, { LOG_LEVEL: 'silent' });
    const runtime = await startTestRuntime();
    await layout.connect(runtime.url);
    try {
      for (const [label, url, requests] of [
        ['paced, 20 MB/s per connection', PACED_URL, 16],
        ['unpaced loopback (CPU-bound)', FAST_URL, 48],
      ] as const) {
        const results = { direct: [] as FetchResult[], proxy: [] as FetchResult[], proxyCpu: [] as number[] };
        await layout.fetch({ via: 'direct', url, requests: CONCURRENCY });
        await layout.fetch({ via: 'proxy', url, requests: CONCURRENCY });
        for (let round = 0; round < ROUNDS; round++) {
          // Interleaved so drift hits both paths alike.
          results.direct.push(await layout.fetch({ via: 'direct', url, requests }));
          const cpu = process.cpuUsage();
          const proxied = await layout.fetch({ via: 'proxy', url, requests });
          const used = process.cpuUsage(cpu);
          results.proxy.push(proxied);
          results.proxyCpu.push((used.user + used.system) / 1000 / ((requests * 4 * 1024 * 1024) / (1024 * 1024)));
        }
        const d = median(results.direct.map((r) => r.mibPerSecond));
        const p = median(results.proxy.map((r) => r.mibPerSecond));
        const cpuNote =
          layout.label === 'one process'
            ? `${median(results.direct.map((r) => r.cpuMsPerMib)).toFixed(2)} / ${median(results.proxy.map((r) => r.cpuMsPerMib)).toFixed(2)} (all parties)`
            : `${median(results.direct.map((r) => r.cpuMsPerMib)).toFixed(2)} client / ${median(results.proxyCpu).toFixed(2)} proxy`;
        rows.push([
          `${layout.label}; ${label}`,
          `${d.toFixed(0)} MB/s`,
          `${p.toFixed(0)} MB/s`,
          `${(p / d).toFixed(2)}×`,
          cpuNote,
          '≥ 0.8×',
          p / d >= 0.8 ? 'met' : 'MISSED',
        ]);
      }
    } finally {
      await runtime.dispose();
      await layout.close();
    }
  }
  return rows;
}

const LAYOUTS = { separate: separateProcesses, same: sameProcess };

export async function bench(): Promise<BenchTable[]> {
  const rows: string[][] = [];
  for (const name of Object.keys(LAYOUTS)) {
    const child = fork(SELF, [], { stdio: 'inherit', env: { ...process.env, BENCH_PROXY_LAYOUT: name } });
    const [answer] = await Promise.all([
      new Promise<string[][]>((resolve) => child.once('message', (m) => resolve(m as string[][]))),
      new Promise((resolve) => child.once('exit', resolve)),
    ]);
    rows.push(...answer);
  }
  return [
    {
      title: `Media proxy throughput: 4 MiB file, ${CONCURRENCY} requests in flight over keep-alive connections, median of ${ROUNDS} interleaved rounds`,
      columns: ['layout; upstream', 'direct HTTPS', 'via /api/image-proxy', 'ratio', 'CPU ms per MiB: direct / proxied', 'goal', 'result'],
      rows,
      notes: [
        'Separate processes: "client" is what a direct download costs its client (TLS decryption, HTTP parsing); "proxy" is the proxy',
        'process relaying (the same decryption and parsing, a plain HTTP write, the handler). Unpaced, the proxy process is the bottleneck,',
        'so the ratio is about client CPU ÷ proxy CPU per MiB: a relay that decrypts and re-sends cannot match a client that only decrypts.',
      ],
    },
  ];
}

const layout = process.env.BENCH_PROXY_LAYOUT as keyof typeof LAYOUTS | undefined;
if (layout && process.send && process.argv[1] === SELF) {
  process.send(await measure(LAYOUTS[layout]), () => process.exit(0));
}
