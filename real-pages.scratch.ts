import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
const only = process.env.ONLY?.split(',');
const files = readdirSync('/tmp/realpages').filter((f) => f.endsWith('.html') && (!only || only.includes(f))).sort();
const server = createServer((req, res) => {
  const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0]!);
  if (!files.includes(name)) { res.writeHead(404); return void res.end(); }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(readFileSync(`/tmp/realpages/${name}`));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
process.env.UNSAFE_TEST_LOOPBACK_PORTS = String(port);
process.env.LOG_LEVEL = 'error';
const { mkdtemp } = await import('node:fs/promises');
const dataDir = await mkdtemp('/tmp/easel-real-');
const { startLocal } = await import('#infra/local/runtime.ts');
const runtime = await startLocal({ port: 0, backendPorts: { dynamodb: 0, s3: 0, sqs: 0 }, dataDir, workers: false, env: { ...process.env } });
const { browserBackend } = await import('#shared/wiring/capture.ts');
const { capturePng } = await import('#shared/services/capture/page-capture.ts');
const { DEFAULT_OPTIONS } = await import('#shared/services/capture/options.ts');
const { createTargetGuard } = await import('#shared/services/capture/target.ts');
const { cachingResolver, systemResolver } = await import('#shared/net/guard.ts');
const guard = createTargetGuard({ loopbackPorts: [port] }, cachingResolver(systemResolver, 30_000));
const mode = process.argv[2] ?? 'settle';
const fullPage = process.argv[3] === 'full';
const results: { name: string; ms: number; out: string }[] = [];
for (const name of files) {
  const lease = await browserBackend().acquire();
  const started = performance.now();
  let out = '';
  try {
    const r = await capturePng(lease, { url: new URL(`http://127.0.0.1:${port}/${name}`), deviceType: 'desktop', colorScheme: 'light', timeoutMs: 15_000, options: { ...DEFAULT_OPTIONS, fullPage }, ...(mode === 'old' ? { wait: { kind: 'load-quiet', quietMs: 50, maxMs: 1000 } as const } : {}) }, guard);
    out = r.report.settled === false ? `pending ${r.report.pending?.requests}${r.report.pending?.changing ? ' changing' : ''}` : r.report.settled ? 'settled' : 'ok';
    if (r.extent?.truncated) out += ' truncated';
  } catch (e) { out = `ERR ${(e as { status?: number }).status}`; }
  results.push({ name, ms: performance.now() - started, out });
}
const times = results.map((r) => r.ms).sort((a, b) => a - b);
const pct = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!);
console.log(JSON.stringify({ mode, fullPage, n: results.length, p50: pct(50), p95: pct(95), max: pct(100), errors: results.filter((r) => r.out.startsWith('ERR')).map((r) => `${r.name} ${r.out}`), outcomes: Object.entries(results.reduce((m, r) => ({ ...m, [r.out.replace(/\d+/g, 'n')]: ((m as Record<string, number>)[r.out.replace(/\d+/g, 'n')] ?? 0) + 1 }), {})) }));
for (const r of results.filter((r) => r.ms > 3000)) console.log('slow', r.name, Math.round(r.ms), r.out);
await runtime.stop(); server.close(); process.exit(0);
