/** Draws annotations on the editor's preview as a user does: a tool from the toolbar, then a drag or a click, in source pixels. */
import type { Page } from 'puppeteer-core';

interface View {
  box: { x: number; y: number };
  scale: number;
  crop: { x: number; y: number };
}

export type BoxTool = 'rect' | 'ellipse' | 'arrow' | 'line' | 'highlight' | 'blur' | 'pixelate';

// In-page scripts as strings: the bench imports this file and is type-checked without the DOM's types.
const SETTLED = `(() => {
  const canvas = document.getElementById('preview');
  return canvas.dataset.rendered === canvas.dataset.revision && document.getElementById('annotate-overlay').dataset.view !== undefined;
})()`;
const PLACEMENT = `(() => {
  const overlay = document.getElementById('annotate-overlay');
  const rect = overlay.getBoundingClientRect();
  return { view: JSON.parse(overlay.dataset.view), left: rect.x, top: rect.y };
})()`;

/** Waits until the preview shows the latest change, as a user sees it before the next step. */
export async function previewSettled(page: Page): Promise<void> {
  await page.waitForFunction(SETTLED);
}

/** A source pixel's position on the page, once the preview shows the latest change. */
export async function sourcePointOnPage(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  await previewSettled(page);
  const { view, left, top } = (await page.evaluate(PLACEMENT)) as { view: View; left: number; top: number };
  return { x: left + view.box.x + (x - view.crop.x) * view.scale, y: top + view.box.y + (y - view.crop.y) * view.scale };
}

/** Chooses `tool`, unless it is the tool already: its button pressed again goes back to select. */
async function choose(page: Page, tool: string): Promise<void> {
  await (await page.$(`#annotate-toolbar button[data-tool="${tool}"][aria-pressed="false"]`))?.click();
}

/** Chooses `tool` and drags from one source pixel to another. */
export async function drawBox(page: Page, tool: BoxTool, from: [number, number], to: [number, number]): Promise<void> {
  await choose(page, tool);
  const start = await sourcePointOnPage(page, ...from);
  const end = await sourcePointOnPage(page, ...to);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let step = 1; step <= 4; step += 1) await page.mouse.move(start.x + ((end.x - start.x) * step) / 4, start.y + ((end.y - start.y) * step) / 4);
  await page.mouse.up();
}

/** Places the next numbered step marker at a source pixel. */
export async function placeStep(page: Page, x: number, y: number): Promise<void> {
  await choose(page, 'step');
  const point = await sourcePointOnPage(page, x, y);
  await page.mouse.click(point.x, point.y);
}

/**
 * Three redactions (blur, pixelate, blur) and ten other annotations over a `width` × `height`
 * source: the bench's and the tests' "annotated desktop capture".
 */
export async function annotateDesktop(page: Page, width: number, height: number): Promise<void> {
  const box = (fx: number, fy: number, fw: number, fh: number): [[number, number], [number, number]] => [
    [Math.round(width * fx), Math.round(height * fy)],
    [Math.round(width * (fx + fw)), Math.round(height * (fy + fh))],
  ];
  await drawBox(page, 'blur', ...box(0.05, 0.1, 0.3, 0.15));
  await drawBox(page, 'pixelate', ...box(0.5, 0.3, 0.3, 0.2));
  await drawBox(page, 'blur', ...box(0.1, 0.65, 0.4, 0.12));
  await drawBox(page, 'rect', ...box(0.45, 0.05, 0.2, 0.15));
  await drawBox(page, 'rect', ...box(0.7, 0.6, 0.2, 0.3));
  await drawBox(page, 'ellipse', ...box(0.2, 0.4, 0.15, 0.15));
  await drawBox(page, 'arrow', ...box(0.6, 0.55, -0.2, -0.2));
  await drawBox(page, 'arrow', ...box(0.9, 0.1, -0.1, 0.15));
  await drawBox(page, 'line', ...box(0.05, 0.9, 0.5, 0.02));
  await drawBox(page, 'highlight', ...box(0.4, 0.82, 0.3, 0.05));
  await drawBox(page, 'highlight', ...box(0.05, 0.3, 0.3, 0.05));
  await placeStep(page, Math.round(width * 0.3), Math.round(height * 0.08));
  await placeStep(page, Math.round(width * 0.85), Math.round(height * 0.5));
}
