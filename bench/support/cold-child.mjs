/**
 * One cold start, in a process of its own: imports a built route bundle and invokes its handler
 * with the events in the file named on the command line (the first is the cold invocation, the
 * rest warm ones), then prints one JSON line of timings and exits: wall and CPU milliseconds of
 * the import and of each invocation, and the peak resident memory. Plain .mjs so that nothing
 * but the bundle is loaded: no type stripping, no bench code in the figure.
 *
 * Each invocation also reports the HTTP requests it made (to DynamoDB, S3, an upstream) and how
 * long at least one of them was outstanding: the time the call spent waiting on its backends, seen
 * through Node's `http.client.request.start` diagnostics channel (which node:http publishes anyway).
 *
 * With BENCH_TREE=1 (the capture function) the CPU time and memory of the processes the handler
 * started (Chromium) are added, read from /proc: clock ticks, so 10 ms steps per process.
 */
const started = performance.now();
const [bundle, eventsFile] = process.argv.slice(2);
// require(), not import: an ES import of node:fs loads its promises API too (≈3 ms), which would
// count against every route.
const { createRequire } = await import('node:module');
const { readFileSync, readdirSync } = createRequire(import.meta.url)('node:fs');
const events = JSON.parse(readFileSync(eventsFile, 'utf8'));
const { subscribe } = createRequire(import.meta.url)('node:diagnostics_channel');

/** Requests made and time with one or more outstanding, since the last `takeRequests()`. */
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

/** The processes below this one: pid → the /proc/<pid>/stat fields after the command name. */
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
    for (const [pid, fields] of stats) if (!below.has(pid) && below.has(Number(fields[1]))) (below.add(pid), (grew = true));
  }
  below.delete(process.pid);
  return [...below].map((pid) => ({ pid, fields: stats.get(pid) }));
}

/** CPU ms of the processes below this one (utime + stime). */
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
  const ms = performance.now() - begun;
  invocations.push({ ms, cpuMs: cpuAtEnd() - cpu, status: result?.statusCode, ...takeRequests() });
}
// Peak memory: this process's, plus the high-water mark of each process it started (shared pages
// counted in each, so an upper bound).
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
  JSON.stringify({ sinceStart: started, importMs: imported - beforeImport, importCpuMs, invocations, peakRssMiB, uptimeMs: performance.now() }) + '\n',
);
process.exit(0);
