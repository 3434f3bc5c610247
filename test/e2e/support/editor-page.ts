/**
 * The editor at / in the e2e browser: fresh contexts with their own downloads and clipboard, and
 * the waits and pixel reads the editor suites share.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { waitFor } from '../../support/expectations.ts';

/** A browser under a shared, loaded machine: room to wait for conditions, never sleeps. */
export const SLOW = { timeout: 60_000 };

export interface Opened {
  page: Page;
  context: BrowserContext;
  downloads: string;
  origin: string;
  /** What the page logged as errors, from the first byte on. */
  consoleErrors: string[];
}

/** Opens editors in `browser`; `closeAll()` (in afterEach) closes the contexts opened so far. */
export function editorOpener(browser: () => Browser, workdir: () => string) {
  const contexts: BrowserContext[] = [];
  return {
    /** Also for contexts a test makes itself, so they are closed with the rest. */
    track(context: BrowserContext): BrowserContext {
      contexts.push(context);
      return context;
    },
    async closeAll(): Promise<void> {
      for (const context of contexts.splice(0)) await context.close();
    },
    /** A fresh context with its own download folder and clipboard access, at the editor. */
    async open(origin: string, viewport = { width: 1440, height: 900 }): Promise<Opened> {
      const downloads = await mkdtemp(join(workdir(), 'downloads-'));
      const context = await browser().createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: downloads } });
      contexts.push(context);
      await context.overridePermissions(origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
      const page = await context.newPage();
      await page.setViewport(viewport);
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`${message.text()} ${message.location().url ?? ''}`);
      });
      // Record CSP violations and layout shifts from the first byte on.
      await page.evaluateOnNewDocument(() => {
        const record = window as unknown as { violations: string[]; shifts: number[] };
        record.violations = [];
        record.shifts = [];
        document.addEventListener('securitypolicyviolation', (event) => record.violations.push(`${event.effectiveDirective} ${event.blockedURI}`));
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) record.shifts.push(entry.value);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`${origin}/`);
      await page.waitForSelector('html[data-ready="true"]');
      return { page, context, downloads, origin, consoleErrors };
    },
  };
}

export const violations = (page: Page) => page.evaluate(() => (window as unknown as { violations: string[] }).violations);
export const shiftTotal = (page: Page) => page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0));
export const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? '');
export const readout = (page: Page) =>
  page.$eval('#readout', (element) => ({ width: Number((element as HTMLElement).dataset.width), height: Number((element as HTMLElement).dataset.height) }));

/** Waits for a status line to start with `prefix`, failing fast with the page's problem text if one shows. */
export async function waitForStatus(page: Page, selector: string, prefix: string, problem: string): Promise<string> {
  await page.waitForFunction(
    (sel, start, alert) => (document.querySelector(sel)?.textContent ?? '').startsWith(start) || (document.querySelector(alert)?.textContent ?? '') !== '',
    { timeout: 30_000 },
    selector,
    prefix,
    problem,
  );
  const alert = await text(page, problem);
  if (alert !== '') throw new Error(`The editor reported a problem: ${alert}`);
  return text(page, selector);
}

/**
 * Exports (by `start`, the Export button unless given) and reads the downloaded file named in
 * #export-result from `downloads`. Earlier downloads are removed first, so the name is free.
 */
export async function exportDownload(page: Page, downloads: string, start = () => page.click('#export-button')): Promise<Buffer> {
  for (const file of await readdir(downloads)) await rm(join(downloads, file), { force: true });
  await start();
  await waitForStatus(page, '#export-status', 'Exported and downloaded', '#export-error');
  const name = await page.$eval('#export-result', (element) => (element as HTMLElement).dataset.name!);
  return waitFor(async () => {
    const bytes = await readFile(join(downloads, name)).catch(() => Buffer.alloc(0));
    return bytes.length > 0 ? bytes : undefined;
  });
}

/** A 300 × 200 yellow PNG written to `dir` as small.png, the picture the suites open as an image: its path. */
export async function writeSmallPng(dir: string): Promise<string> {
  const path = join(dir, 'small.png');
  await writeFile(
    path,
    await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 250, g: 200, b: 0 } } })
      .png()
      .toBuffer(),
  );
  return path;
}

/** Resolves once the preview shows the latest change. */
export async function previewSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const canvas = document.getElementById('preview') as HTMLCanvasElement;
    return canvas.dataset.rendered === canvas.dataset.revision;
  });
}

/** The RGB of the preview canvas at a point (device pixels), once it shows the latest change. */
export async function previewPixel(page: Page, x: number, y: number): Promise<number[]> {
  await previewSettled(page);
  return page.$eval('#preview', (canvas, px, py) => [...(canvas as HTMLCanvasElement).getContext('2d')!.getImageData(px, py, 1, 1).data].slice(0, 3), x, y);
}

/** How many pixels of an image are within `tolerance` of a colour on every channel. */
export async function countColour(image: Buffer, colour: readonly number[], tolerance = 24): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (Math.abs(data[i]! - colour[0]!) <= tolerance && Math.abs(data[i + 1]! - colour[1]!) <= tolerance && Math.abs(data[i + 2]! - colour[2]!) <= tolerance)
      count += 1;
  }
  return count;
}

export async function pixelOf(image: Buffer, x: number, y: number): Promise<number[]> {
  const raw = await sharp(image).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer();
  return [...raw];
}

export function expectColour(actual: number[], expected: readonly number[], tolerance = 12): void {
  expect(
    actual.every((value, index) => Math.abs(value - expected[index]!) <= tolerance),
    `${actual} ≈ ${expected}`,
  ).toBe(true);
}

export function rgb([r, g, b]: readonly number[]) {
  return { r: r!, g: g!, b: b! };
}
