/**
 * One cold start, in a process of its own: imports a built route bundle and invokes its handler
 * with the events in the file named on the command line (the first is the cold invocation, the
 * rest warm ones), then prints one JSON line of timings and exits. Plain .mjs so that nothing
 * but the bundle is loaded: no type stripping, no bench code in the figure.
 */
const started = performance.now();
const [bundle, eventsFile] = process.argv.slice(2);
// require(), not import: an ES import of node:fs loads its promises API too (≈3 ms), which would
// count against every route.
const { createRequire } = await import('node:module');
const { readFileSync } = createRequire(import.meta.url)('node:fs');
const events = JSON.parse(readFileSync(eventsFile, 'utf8'));
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
const beforeImport = performance.now();
const { handler } = await import(bundle);
const imported = performance.now();
const invocations = [];
for (const event of events) {
  const begun = performance.now();
  const result = await handler(event, context);
  invocations.push({ ms: performance.now() - begun, status: result?.statusCode });
}
process.stdout.write(
  JSON.stringify({ sinceStart: started, importMs: imported - beforeImport, invocations, uptimeMs: performance.now() }) + '\n',
);
process.exit(0);
