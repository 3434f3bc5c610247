/**
 * The export settings in the real browser: the Auto scale kept through changes made before the
 * first capture (the file at the capture's own pixels), and scale, format and quality outside the
 * undo history.
 */
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { exportDownload, readout, SLOW, text, waitForStatus } from './support/editor-page.ts';
import { onePage, useEditorSuite } from './support/editor-suite.ts';

/** The default padding, one step of its slider, and a desktop capture's viewport. */
const PADDING = 64;
const PADDING_STEP = 8;
const DESKTOP = { width: 1920, height: 1080 };

const { runtime, open, site } = useEditorSuite({
  name: 'export-settings',
  site: onePage('<!doctype html><title>Plain</title><body style="background:#fff">A plain page'),
});

const checkedScale = (page: Page) => page.$eval('input[name="scale"]:checked', (input) => (input as HTMLInputElement).value);
const history = (page: Page) => page.$$eval('#annotate-undo, #annotate-redo', (buttons) => buttons.map((button) => button.getAttribute('aria-label')));

describe('the export settings', SLOW, () => {
  it('keeps the Auto scale when Padding and Frame change before the first capture, and exports at the capture’s own pixels', async () => {
    // Prepare: a fresh browser, Auto shown and chosen
    const { page, downloads } = await open(runtime().url);
    const before = { checked: await checkedScale(page), label: await text(page, 'input[name="scale"][value="auto"] + span') };

    // Act: Padding one step up and a light frame, then a capture
    await page.focus('#padding');
    await page.keyboard.press('ArrowRight');
    await page.select('#frame', 'light');
    await page.type('#capture-url', `${site().origin}/`);
    await page.click('#capture-submit');
    await waitForStatus(page, '#capture-status', 'Captured', '#source-error');
    const size = await readout(page);
    const file = await exportDownload(page, downloads);

    // Assess: still Auto, which is 1× for a desktop capture: the file is the composition's layout size
    const width = DESKTOP.width + 2 * (PADDING + PADDING_STEP);
    expect(before).toEqual({ checked: 'auto', label: 'Auto' });
    expect(await checkedScale(page)).toBe('auto');
    expect(await text(page, '#readout')).toBe(`Export: ${size.width} × ${size.height} px (1×)`);
    expect(size.width).toBe(width);
    expect(await text(page, '#scale-note')).toBe(`Auto is 1× for this source: ${size.width} × ${size.height} px.`);
    expect(await sharp(file).metadata()).toMatchObject({ width, height: size.height });
    expect(new URL(page.url()).hash).toContain('x=auto');
  });

  it('changes format, quality and scale without an undo step, keeping the redo step, and leaves them on undo and redo', async () => {
    // Prepare: a padding change undone, so there is a step to redo
    const { page } = await open(runtime().url);
    await page.focus('#padding');
    await page.keyboard.press('ArrowRight');
    await page.click('#annotate-undo');
    const undone = await history(page);

    // Act: the export settings
    await page.select('#format', 'webp');
    await page.select('#quality', 'low');
    await page.click('input[name="scale"][value="2"]');
    const afterExportSettings = await history(page);
    await page.click('#annotate-redo');

    // Assess
    expect(undone).toEqual(['Undo (0/100)', 'Redo (1/100)']);
    expect(afterExportSettings).toEqual(['Undo (0/100)', 'Redo (1/100)']);
    expect(await history(page)).toEqual(['Undo (1/100)', 'Redo (0/100)']);
    expect(
      await page.evaluate(() => ({
        padding: (document.getElementById('padding') as HTMLInputElement).value,
        format: (document.getElementById('format') as HTMLSelectElement).value,
        quality: (document.getElementById('quality') as HTMLSelectElement).value,
        scale: document.querySelector<HTMLInputElement>('input[name="scale"]:checked')?.value,
      })),
    ).toEqual({ padding: String(PADDING + PADDING_STEP), format: 'webp', quality: 'low', scale: '2' });
  });
});
