/**
 * The parts of a cold capture timed apart (PART_NAMES in bench/cold-start.ts), printed in
 * cold-child.mjs's shape. Run with an empty TMPDIR so Chromium is extracted as in a new sandbox.
 */
const beforeImport = performance.now();
const { default: chromium } = await import('@sparticuz/chromium');
const { default: puppeteer } = await import('puppeteer-core');
const { chromiumArgs } = await import('#shared/services/capture/browsers.ts');
const importMs = performance.now() - beforeImport;
const url = process.argv[2]!;

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number }> {
  const started = performance.now();
  await fn();
  return { ms: performance.now() - started };
}

let executablePath = '';
const extract = await timed(async () => (executablePath = await chromium.executablePath()));
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
