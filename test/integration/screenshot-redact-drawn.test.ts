/**
 * POST /api/screenshot with redact on text as pages draw it (stroked, marked, split into letters,
 * reversed, transformed, generated, in controls, SVG, closed shadow roots, another site's frame,
 * invisible), judged on pixels: no red pixel of a secret survives, every box is solid, nothing
 * outside the boxes changed, and the boxes listed are exactly the ones painted.
 */
import { describe, expect, it } from 'vitest';
import type { Redaction } from '#shared/schemas/redaction.ts';
import { call, freshClient } from '../support/client.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { DRAWN_CASES, LEFT_CELL, RIGHT_CELL, ROW_PX, ROWS_TOP } from '../support/redaction-drawn.ts';
import { startRedactionPages } from '../support/redaction-pages.ts';
import { changedOutside, notBlack, pixels, redPixels } from '../support/redaction-pixels.ts';

const suite = useRuntimeWithPages(startRedactionPages);
const ALL = ['email', 'phone', 'card', 'secret', 'ip'];

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body, from: freshClient() });

/** The case rows the picture shows (the last perhaps in part), with their bands in image px. */
function rowsShown(height: number, scale: number) {
  return DRAWN_CASES.map((entry, i) => ({ entry, top: (ROWS_TOP + i * ROW_PX) * scale, bottom: (ROWS_TOP + (i + 1) * ROW_PX) * scale })).filter(
    (row) => row.top < height,
  );
}

describe('POST /api/screenshot: redact, on text as pages draw it', () => {
  it.each([
    { scale: 1, fullPage: true },
    { scale: 2, fullPage: true },
    { scale: 1, fullPage: false },
  ])('covers each drawn secret solid and only it, listing exactly the boxes painted ($scale×, fullPage $fullPage)', async ({ scale, fullPage }) => {
    // Act
    const url = `${suite.pages.origin}/drawn`;
    const plain = await capture({ url, fullPage, scale });
    const redacted = await capture({ url, fullPage, scale, redact: ALL });

    // Assess
    expect(redacted.status).toBe(200);
    expect(redacted.body.report.unread).toEqual({ images: 0, canvases: 0, videos: 0, svgImages: 0 });
    expect(plain.body.report.unread).toBeUndefined();
    const boxes = redacted.body.redactions as Redaction[];
    const [before, after] = [await pixels(plain.body.screenshot), await pixels(redacted.body.screenshot)];
    expect([after.width, after.height]).toEqual([before.width, before.height]);
    const rows = rowsShown(after.height, scale);
    expect(rows.length).toBe(fullPage ? DRAWN_CASES.length : Math.ceil((1080 - ROWS_TOP) / ROW_PX));
    // One box of the expected kind per secret drawn, in its own cell; none for text not drawn, none over a look-alike.
    for (const row of rows) {
      const inRow = boxes.filter((box) => box.y + box.height / 2 >= row.top && box.y + box.height / 2 < row.bottom);
      expect({ name: row.entry.name, kinds: inRow.map((box) => box.kind) }).toEqual({ name: row.entry.name, kinds: row.entry.kind ? [row.entry.kind] : [] });
      for (const box of inRow)
        expect({ name: row.entry.name, right: box.x + box.width <= (LEFT_CELL.x + LEFT_CELL.width) * scale }).toEqual({ name: row.entry.name, right: true });
      // The control: without redact the secret is there, red.
      if (row.entry.kind)
        expect({ name: row.entry.name, red: redPixels(before, { x: 0, y: row.top, width: RIGHT_CELL.x * scale, height: row.bottom - row.top }) > 0 }).toEqual({
          name: row.entry.name,
          red: true,
        });
    }
    expect(boxes).toHaveLength(rows.filter((row) => row.entry.kind).length);
    // Solid, every pixel; no red pixel of any secret left; nothing painted that is not listed.
    for (const box of boxes) expect({ box, notBlack: notBlack(after, box) }).toEqual({ box, notBlack: 0 });
    expect(redPixels(after)).toBe(0);
    expect(changedOutside(before, after, boxes)).toBe(0);
  });
});

describe('POST /api/screenshot: redact, media it cannot read', () => {
  it.each([
    { fullPage: false, images: 1 },
    { fullPage: true, images: 2 },
  ])('counts the loaded images, canvases, videos and SVG images the picture shows (fullPage $fullPage)', async ({ fullPage, images }) => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/media`, fullPage, redact: ['email'] });

    // Assess: a broken image, a hidden canvas and an image of opacity 0 draw nothing to read.
    expect(response.status).toBe(200);
    expect(response.body.report.unread).toEqual({ images, canvases: 1, videos: 1, svgImages: 1 });
    expect(response.body.redactions).toEqual([]);
  });
});
