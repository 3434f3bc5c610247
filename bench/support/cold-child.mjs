/**
 * One cold start in a process of its own: imports a bundle, invokes its handler with each event of
 * the file (the first cold), prints one JSON line of timings. Plain .mjs so only the bundle loads.
 */
const started = performance.now();
const [bundle, eventsFile] = process.argv.slice(2);
// require(), not import: an ES import of node:fs also loads its promises API, counted against every route.
const { createRequire } = await import('node:module');
const { readFileSync, readdirSync } = createRequire(import.meta.url)('node:fs');
const events = JSON.parse(readFileSync(eventsFile, 'utf8'));
const { subscribe } = createRequire(import.meta.url)('node:diagnostics_channel');

// Time waiting on backends, seen through the diagnostics channel node:http publishes anyway.
let requests = 0;
let outstanding = 0;
let waitingSince = 0;
let waitingMs = 0;
subscribe('http.client.request.start', ({ request }) => {
  requests += 1;
  if (outstanding++ === 0) waitingSince = performance.now();
  request.once('close', () => {
    if (--outstanding === 0) waitingMs += performance.now() - waitingSince;
  });
});
function takeRequests() {
  const taken = { requests, waitingMs: waitingMs + (outstanding > 0 ? performance.now() - waitingSince : 0) };
  requests = 0;
  waitingMs = 0;
  if (outstanding > 0) waitingSince = performance.now();
  return taken;
}
const tree = process.env.BENCH_TREE === '1';
const TICK_MS = 10;

// BENCH_TREE=1 adds the processes the handler started (Chromium), from /proc in clock ticks.
/** pid → the /proc/<pid>/stat fields after the command name. */
function descendants() {
  const stats = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      stats.set(Number(name), stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    } catch {
      // Gone while we looked.
    }
  }
  const below = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, fields] of stats)
      if (!below.has(pid) && below.has(Number(fields[1]))) {
        below.add(pid);
        grew = true;
      }
  }
  below.delete(process.pid);
  return [...below].map((pid) => ({ pid, fields: stats.get(pid) }));
}

const childrenCpuMs = () => (tree ? descendants().reduce((sum, { fields }) => sum + (Number(fields[11]) + Number(fields[12])) * TICK_MS, 0) : 0);
const selfCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
// The /proc scan costs CPU too: read the children first when a measurement starts, last when it ends.
const cpuAtStart = () => childrenCpuMs() + selfCpuMs();
const cpuAtEnd = () => selfCpuMs() + childrenCpuMs();

const context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'bench',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bench',
  memoryLimitInMB: '512',
  awsRequestId: 'bench',
  logGroupName: '/aws/lambda/bench',
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 30_000,
  done() {},
  fail() {},
  succeed() {},
};
const importCpu = cpuAtStart();
const beforeImport = performance.now();
const { handler } = await import(bundle);
const imported = performance.now();
const importCpuMs = cpuAtEnd() - importCpu;
const invocations = [];
for (const event of events) {
  takeRequests();
  const cpu = cpuAtStart();
  const begun = performance.now();
  const result = await handler(event, context);
  const answered = performance.now();
  // `at`: since the process started (performance's time origin), so a cold start's wait shows whole.
  invocations.push({ ms: answered - begun, at: answered, cpuMs: cpuAtEnd() - cpu, status: result?.statusCode, ...takeRequests() });
}
// An upper bound: shared pages count in each process.
let peakRssMiB = process.resourceUsage().maxRSS / 1024;
if (tree) {
  for (const { pid } of descendants()) {
    try {
      peakRssMiB += Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      // Gone while we looked.
    }
  }
}
process.stdout.write(
  `${JSON.stringify({ sinceStart: started, importMs: imported - beforeImport, importCpuMs, invocations, peakRssMiB, uptimeMs: performance.now() })}\n`,
);
process.exit(0);
