/**
 * The parts of a cold capture timed apart (PART_NAMES in bench/cold-capture.ts), printed in
 * cold-child.mjs's shape. Chromium from CHROMIUM_PACK, CHROMIUM_PATH or @sparticuz/chromium's own
 * brotli files, as the capture function would take it; run with an empty TMPDIR, as in a new sandbox.
 */
const beforeImport = performance.now();
const { default: chromium } = await import('@sparticuz/chromium');
const { default: puppeteer } = await import('puppeteer-core');
const { chromiumArgs } = await import('#shared/services/capture/browsers.ts');
const { unpackChromium } = await import('#shared/services/capture/chromium-pack.ts');
const { tmpdir } = await import('node:os');
const importMs = performance.now() - beforeImport;
const url = process.argv[2]!;

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; at: number }> {
  const started = performance.now();
  await fn();
  return { ms: performance.now() - started, at: performance.now() };
}

const pack = process.env.CHROMIUM_PACK;
let executablePath = '';
const extract = await timed(
  async () => (executablePath = process.env.CHROMIUM_PATH ?? (pack ? await unpackChromium(pack, tmpdir()) : await chromium.executablePath())),
);
const args = await chromiumArgs({ singleProcess: process.env.CHROMIUM_SINGLE_PROCESS === 'true' });
let browser: Awaited<ReturnType<typeof puppeteer.launch>> | undefined;
const launch = await timed(async () => (browser = await puppeteer.launch({ executablePath, headless: 'shell', args, defaultViewport: null })));
const capture = () =>
  timed(async () => {
    const page = await browser!.newPage();
    await page.setViewport({ width: 1920, height: 1080 });
    await page.goto(url, { waitUntil: 'load' });
    await page.screenshot({ type: 'png' });
    await page.close();
  });
const first = await capture();
const second = await capture();
await browser!.close();
process.stdout.write(`${JSON.stringify({ importMs, invocations: [extract, launch, first, second] })}\n`);
process.exit(0);
