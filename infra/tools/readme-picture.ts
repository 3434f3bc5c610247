/**
 * `node infra/tools/readme-picture.ts`: makes editor/screenshot.webp, the README's picture, by using
 * the editor as a person does on a billing page served here: capture, compose, annotate, redact.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { drawBox, placeStep, sourcePointOnPage } from '../../test/e2e/support/annotating.ts';
import { launchBrowser } from '../../test/support/browser.ts';
import { startTestRuntime } from '../../test/support/local.ts';
import { serveOnLoopback } from '../../test/support/loopback-server.ts';

const OUTPUT = join(import.meta.dirname, '..', '..', 'editor', 'screenshot.webp');

const row = (label: string, value: string) => `<div class="row"><span>${label}</span><b>${value}</b></div>`;
const invoice = (date: string, id: string) => `<tr><td>${date}</td><td>${id}</td><td>$24.00</td><td><i>Paid</i></td></tr>`;
const BILLING = `<!doctype html><meta charset="utf-8"><title>Billing</title><style>
body{margin:0;font:15px system-ui,sans-serif;color:#1f2937;background:#f3f4f6}main{width:1100px;margin:0 auto;padding:32px}
h1{font-size:28px;margin:0 0 24px}.grid{display:grid;grid-template-columns:1fr 1fr;gap:24px}
section{background:#fff;border-radius:10px;padding:20px 24px;box-shadow:0 1px 3px #0002}h2{font-size:16px;margin:0 0 12px}
.row{display:flex;justify-content:space-between;padding:9px 0;border-bottom:1px solid #eee}.row span{color:#6b7280}
.plan{font-size:30px;font-weight:700}.plan small{font-size:14px;color:#6b7280;font-weight:400}
button{font:600 14px system-ui;padding:9px 16px;border-radius:8px;border:1px solid #d1d5db;background:#fff;margin-right:8px}
button.primary{background:#4f46e5;color:#fff;border-color:#4f46e5}table{width:100%;border-collapse:collapse;margin-top:8px}
td{padding:10px 0;border-bottom:1px solid #eee}i{font-style:normal;background:#dcfce7;color:#166534;padding:2px 8px;border-radius:10px;font-size:12px}
</style><main><h1>Billing</h1><div class="grid"><section><h2>Account</h2>
${row('Name', 'Jane Cooper')}${row('E-mail', 'jane.cooper@example.com')}${row('Card', 'Visa •••• 4242 · 4242 4242 4242 4242')}${row('Billing address', '221B Baker Street, London NW1')}${row('VAT number', 'GB 123 4567 89')}
</section><section><h2>Current plan</h2><p class="plan">Pro <small>$24 / month</small></p><p>Unlimited projects, 10 seats, priority support.</p>
<button class="primary">Upgrade to Team</button><button>Cancel plan</button></section></div>
<section style="margin-top:24px"><h2>Invoices</h2><table>${invoice('1 Nov 2026', 'INV-2026-0114')}${invoice('1 Oct 2026', 'INV-2026-0098')}${invoice('1 Sep 2026', 'INV-2026-0081')}</table></section></main>`;

const pages = await serveOnLoopback((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(BILLING);
}, '127.0.0.2');
const runtime = await startTestRuntime({ env: { ...process.env, LOCAL_CAPTURE_PORTS: String(new URL(pages.origin).port) } });
const browser = await launchBrowser();
interface Box {
  x: number;
  y: number;
  right: number;
  bottom: number;
}

// In-page scripts as strings: this project is type-checked without the DOM's types.
const PARTS = `(() => {
  const origin = document.querySelector('main').getBoundingClientRect();
  const at = (selector) => {
    const r = document.querySelector(selector).getBoundingClientRect();
    return { x: Math.round(r.x - origin.x), y: Math.round(r.y - origin.y), right: Math.round(r.right - origin.x), bottom: Math.round(r.bottom - origin.y) };
  };
  return { email: at('.row:nth-child(3) b'), card: at('.row:nth-child(4) b'), plan: at('.grid section:nth-child(2)'), upgrade: at('button.primary'), invoice: at('tr:first-child'), title: at('h1') };
})()`;
const OPEN_ADVANCED = `document.getElementById('capture-selector').closest('details').open = true`;
const CAPTURED = `(document.getElementById('capture-status')?.textContent ?? '').startsWith('Captured')`;
const AT_TOP = `document.scrollingElement.scrollTo(0, 0); new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))`;

/** Where the page's parts are in the capture of `main`, in source pixels. */
async function partsOf(url: string) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1920, height: 1080 });
  await page.goto(url);
  const parts = (await page.evaluate(PARTS)) as Record<'email' | 'card' | 'plan' | 'upgrade' | 'invoice' | 'title', Box>;
  await page.close();
  return parts;
}

try {
  const { email, card, plan, upgrade, invoice, title } = await partsOf(`${pages.origin}/billing`);
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 750 });
  await page.goto(`${runtime.url}/`);
  await page.waitForSelector('html[data-ready="true"]');
  await page.type('#capture-url', `${pages.origin}/billing`);
  await page.evaluate(OPEN_ADVANCED);
  await page.type('#capture-selector', 'main');
  await page.click('#capture-submit');
  await page.waitForFunction(CAPTURED, { timeout: 60_000 });
  await page.click('input[name="gradient"][value="grape"]');
  await page.select('#frame', 'light');
  await placeStep(page, email.x - 40, (email.y + email.bottom) / 2);
  await placeStep(page, card.x - 40, (card.y + card.bottom) / 2);
  await placeStep(page, upgrade.x - 22, (upgrade.y + upgrade.bottom) / 2);
  await drawBox(page, 'rect', [plan.x - 6, plan.y - 6], [plan.right + 6, plan.bottom + 6]);
  await drawBox(page, 'arrow', [upgrade.right + 150, plan.bottom + 90], [upgrade.right + 12, upgrade.bottom + 6]);
  await drawBox(page, 'blur', [email.x - 4, email.y - 4], [email.right + 4, email.bottom + 4]);
  await drawBox(page, 'pixelate', [card.x - 4, card.y - 4], [card.right + 4, card.bottom + 4]);
  await drawBox(page, 'highlight', [invoice.x, invoice.y + 4], [invoice.x + 380, invoice.bottom - 4]);
  await page.click('#annotate-toolbar button[data-tool="text"]');
  const spot = await sourcePointOnPage(page, title.x + 150, title.y + 4);
  await page.mouse.click(spot.x, spot.y);
  await page.keyboard.type('Hide personal data before you share');
  await page.keyboard.press('Enter');
  await page.click('#annotate-toolbar button[data-tool="select"]');
  await page.keyboard.press('Escape');
  await page.evaluate(AT_TOP);
  await sharp(await page.screenshot())
    .webp({ quality: 80 })
    .toFile(OUTPUT);
  process.stdout.write(`${OUTPUT}\n`);
} finally {
  await browser.close();
  await runtime.dispose();
  await pages.close();
}
