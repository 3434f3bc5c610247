/**
 * POST /api/screenshot with redact through the local runtime and the real Chromium, judged on
 * pixels and boxes: each finding's box is solid, and every pixel outside the boxes is what the
 * same capture without redact shows, so no false positive was touched.
 */
import { describe, expect, it } from 'vitest';
import type { Redaction } from '#shared/schemas/redaction.ts';
import { call, freshClient } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { CORPUS } from '../support/redaction-corpus.ts';
import { CORPUS_BANDS, startRedactionPages, TALL_PAGE_PX } from '../support/redaction-pages.ts';
import { changedOutside, notBlack, pixels, redPixels } from '../support/redaction-pixels.ts';

const suite = useRuntimeWithPages(startRedactionPages);
const ALL = ['email', 'phone', 'card', 'secret', 'ip'];

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body, from: freshClient() });

describe('POST /api/screenshot: redact, on the corpus', () => {
  it.each([1, 2])('covers every true positive with solid boxes and leaves every false positive untouched, at scale %i', async (scale) => {
    // Act
    const url = `${suite.pages.origin}/corpus`;
    const [plain, redacted] = [await capture({ url, fullPage: true, scale }), await capture({ url, fullPage: true, scale, redact: ALL })];

    // Assess
    expect(redacted.status).toBe(200);
    expect(plain.body.redactions).toBeUndefined();
    const boxes = redacted.body.redactions as Redaction[];
    const [before, after] = [await pixels(plain.body.screenshot), await pixels(redacted.body.screenshot)];
    CORPUS.forEach((entry, i) => {
      const band = CORPUS_BANDS[i]!;
      const inBand = boxes.filter((box) => box.y + box.height / 2 >= band.top * scale && box.y + box.height / 2 < (band.top + band.height) * scale);
      // A private key is a box per line; anything else one box.
      expect({ entry: entry.name, kinds: inBand.map((box) => box.kind) }).toEqual({
        entry: entry.name,
        kinds: entry.kind ? Array(entry.line.split('\n').length).fill(entry.kind) : [],
      });
    });
    // Monospace: a one-line finding's box is as wide as its characters and a pixel either side for
    // antialiasing (advances are fractional at scale 2).
    const charWidth = (boxes[0]!.width - 2 * scale) / CORPUS.find((entry) => entry.kind)!.secret!.length;
    for (const [i, entry] of CORPUS.entries()) {
      if (!entry.kind || entry.line.includes('\n')) continue;
      const middle = (b: Redaction) => b.y + b.height / 2;
      const box = boxes.find((b) => middle(b) >= CORPUS_BANDS[i]!.top * scale && middle(b) < (CORPUS_BANDS[i]!.top + CORPUS_BANDS[i]!.height) * scale)!;
      expect({
        entry: entry.name,
        width: Math.abs(box.width - 2 * scale - entry.secret!.length * charWidth) <= 2 * scale + entry.secret!.length * charWidth * 0.005,
      }).toEqual({ entry: entry.name, width: true });
    }
    for (const box of boxes) expect({ box, notBlack: notBlack(after, box) }).toEqual({ box, notBlack: 0 });
    // The boxes are painted into the picture, so nothing else moves: every line without a finding,
    // and every pixel outside the boxes, is untouched at every scale.
    CORPUS.forEach((entry, i) => {
      const band = { from: CORPUS_BANDS[i]!.top * scale, to: (CORPUS_BANDS[i]!.top + CORPUS_BANDS[i]!.height) * scale };
      expect({ entry: entry.name, changed: changedOutside(before, after, boxes, band) }).toEqual({ entry: entry.name, changed: 0 });
    });
    expect(changedOutside(before, after, boxes)).toBe(0);
    // Control: without redact the same boxes hold the text.
    expect(boxes.every((box) => notBlack(before, box) > 0)).toBe(true);
  });
});

describe('POST /api/screenshot: redact, on the shapes text takes', () => {
  it('covers a wrapped address line by line, one split over elements, shadow DOM, a same-origin frame and form fields', async () => {
    // Act
    const url = `${suite.pages.origin}/shapes`;
    const plain = await capture({ url });
    const redacted = await capture({ url, redact: ['email', 'card'] });

    // Assess
    expect(redacted.status).toBe(200);
    const boxes = redacted.body.redactions as Redaction[];
    const at = (x: number, y: number) => boxes.filter((box) => box.x <= x && x < box.x + box.width && box.y <= y && y < box.y + box.height);
    // Each box reaches a pixel past the text on either side, for antialiasing.
    const wrapped = boxes.filter((box) => box.x >= 19 && box.x + box.width <= 111 && box.y < 200);
    expect(wrapped.length).toBeGreaterThanOrEqual(3);
    expect(boxes.filter((box) => box.x >= 290 && box.x < 690 && box.y < 200)).toHaveLength(1);
    expect(boxes.filter((box) => box.x >= 690 && box.y < 200)).toHaveLength(1);
    // The frame's text starts past its border (5), padding (7) and its own margin (10).
    expect(at(20 + 5 + 7 + 10 + 2, 300 + 5 + 7 + 10 + 8).map((box) => box.kind)).toEqual(['email']);
    // The input's padding box, and the textarea's.
    expect(boxes).toContainEqual({ kind: 'email', x: 502, y: 302, width: 308, height: expect.any(Number) });
    expect(boxes).toContainEqual({ kind: 'card', x: 902, y: 302, width: expect.any(Number), height: 68 });
    expect(boxes).toHaveLength(wrapped.length + 5);
    const [before, after] = [await pixels(plain.body.screenshot), await pixels(redacted.body.screenshot)];
    for (const box of boxes) expect({ box, notBlack: notBlack(after, box) }).toEqual({ box, notBlack: 0 });
    expect(changedOutside(before, after, boxes)).toBe(0);
  });
});

describe('POST /api/screenshot: redact, an element and a phone', () => {
  it.each([
    { body: { selector: '#split' }, size: 'the element' },
    { body: { deviceType: 'mobile' }, size: 'a phone, the page zoomed out to its width' },
  ])('paints each box where its text is drawn in the picture of $size', async ({ body }) => {
    // Act
    const url = `${suite.pages.origin}/shapes`;
    const plain = await capture({ url, ...body });
    const redacted = await capture({ url, ...body, redact: ['email'] });

    // Assess: every box black, nothing else changed, and without redact each box held text.
    expect(redacted.status).toBe(200);
    const boxes = redacted.body.redactions as Redaction[];
    expect(boxes.length).toBeGreaterThan(0);
    const [before, after] = [await pixels(plain.body.screenshot), await pixels(redacted.body.screenshot)];
    for (const box of boxes) expect({ box, notBlack: notBlack(after, box), held: notBlack(before, box) > 0 }).toEqual({ box, notBlack: 0, held: true });
    expect(changedOutside(before, after, boxes)).toBe(0);
  });
});

describe('POST /api/screenshot: redact, text that changes while the page settles', () => {
  it('covers what the page shows at the picture, not what it showed when it loaded', async () => {
    // Prepare: the detectors loaded, so the text is read ahead well before the page's fetch answers.
    await capture({ url: `${suite.pages.origin}/shapes?key=warm`, redact: ['email'] });

    // Act
    const response = await capture({ url: `${suite.pages.origin}/late`, redact: ['email'] });

    // Assess
    expect(response.status).toBe(200);
    const boxes = response.body.redactions as Redaction[];
    // early@ at 20 px, the fetched late@ at 80 px, and the address joined once its parts are inline at 140 px.
    expect(boxes.map((box) => ({ kind: box.kind, row: Math.floor(box.y / 60) }))).toEqual([
      { kind: 'email', row: 0 },
      { kind: 'email', row: 1 },
      { kind: 'email', row: 2 },
    ]);
    const image = await pixels(response.body.screenshot);
    for (const box of boxes) expect({ box, notBlack: notBlack(image, box) }).toEqual({ box, notBlack: 0 });
  });
});

describe('POST /api/screenshot: redact, text a script rewrites all the time', () => {
  it('holds the page still from the last read of its text to the picture, so no address is drawn uncovered', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/ticking`, redact: ['email'] });

    // Assess: without the hold, the timer replaces the covered text with a new address before the picture.
    expect(response.status).toBe(200);
    const boxes = response.body.redactions as Redaction[];
    expect(boxes.map((box) => box.kind)).toEqual(['email']);
    const image = await pixels(response.body.screenshot);
    expect(notBlack(image, boxes[0]!)).toBe(0);
    let red = 0;
    for (let i = 0; i < image.data.length; i += 3) if (image.data[i]! > 128 && image.data[i + 1]! < 96 && image.data[i + 2]! < 96) red += 1;
    expect(red).toBe(0);
  });
});

describe('POST /api/screenshot: redact, text an animation moves all the time', () => {
  it('holds animations still from the read to the picture, so the boxes are where the addresses are drawn', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/hopping`, redact: ['email'] });

    // Assess: without the hold, each address is read in one place and drawn in another.
    expect(response.status).toBe(200);
    expect((response.body.redactions as Redaction[]).map((box) => box.kind)).toEqual(['email', 'email']);
    const image = await pixels(response.body.screenshot);
    expect(redPixels(image)).toBe(0);
  });
});

describe('POST /api/screenshot: redact, a 12,000 px full page', () => {
  it('covers the findings of every screen, down to the last', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/tall`, fullPage: true, redact: ['email', 'ip'] });

    // Assess
    expect(response.status).toBe(200);
    const boxes = response.body.redactions as Redaction[];
    // 30 rows of 300 have an address and an IP address.
    expect(boxes.filter((box) => box.kind === 'email')).toHaveLength(TALL_PAGE_PX / 400);
    expect(boxes.filter((box) => box.kind === 'ip')).toHaveLength(TALL_PAGE_PX / 400);
    expect(Math.max(...boxes.map((box) => box.y))).toBeGreaterThan(TALL_PAGE_PX - 500);
    const image = await pixels(response.body.screenshot);
    expect(image.height).toBe(TALL_PAGE_PX);
    for (const box of boxes) expect({ box, notBlack: notBlack(image, box) }).toEqual({ box, notBlack: 0 });
  });
});

describe('POST /api/screenshot: redact, the request', () => {
  it('answers the boxes again from the cache, and keeps a capture without redact apart', async () => {
    // Prepare
    const url = `${suite.pages.origin}/shapes?key=cache`;
    const first = await capture({ url, redact: ['card', 'email'] });

    // Act
    const again = await capture({ url, redact: ['email', 'card', 'email'] });
    const without = await capture({ url });

    // Assess
    expect([first.body.cached, again.body.cached, without.body.cached]).toEqual([false, true, false]);
    expect(again.body.redactions).toEqual(first.body.redactions);
    expect(again.body.screenshot).toBe(first.body.screenshot);
    expect(without.body.redactions).toBeUndefined();
  });

  it('refuses an unknown kind with 400 unsupported_value naming it', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/shapes`, redact: ['email', 'ssn'] });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ...expectedEnvelope(suite.runtime.url, 400, 'unsupported_value'),
      error: 'Unsupported value for redact[1]',
      message: 'Unsupported value for redact[1]',
      hint: 'redact[1] must be one of: email, phone, card, secret, ip (got "ssn").',
    });
  });
});
