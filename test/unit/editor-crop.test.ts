/** The crop tool's arithmetic, run in Node: clamping, handles with and without a ratio, the minimum size. */
import { describe, expect, it } from 'vitest';
import { CROP_RATIOS, MIN_CROP, clampCrop, cropToStore, fitRatio, moveCrop, resizeCrop, setCropField } from '#editor/src/model/crop-math.ts';
import type { Handle } from '#editor/src/model/crop-math.ts';
import type { Rect } from '#editor/src/model/layout.ts';

const SOURCE = { width: 1000, height: 600 };
const MIDDLE: Rect = { x: 300, y: 200, width: 400, height: 200 };
const SIXTEEN_NINE = { width: 16, height: 9 };

function isInside(rect: Rect, source = SOURCE): boolean {
  return rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= source.width && rect.y + rect.height <= source.height;
}

function isWhole(rect: Rect): boolean {
  return [rect.x, rect.y, rect.width, rect.height].every(Number.isInteger);
}

describe('crop presets', () => {
  it('offers Free first, then the Compose ratios that step in whole pixels, as whole terms', () => {
    expect(CROP_RATIOS.map((ratio) => [ratio.id, ratio.label, ratio.terms])).toEqual([
      ['free', 'Free', null],
      ['16x9', '16:9', { width: 16, height: 9 }],
      ['1x1', '1:1', { width: 1, height: 1 }],
      ['4x5', '4:5', { width: 4, height: 5 }],
      ['9x16', '9:16', { width: 9, height: 16 }],
      ['4x3', '4:3', { width: 4, height: 3 }],
      ['3x2', '3:2', { width: 3, height: 2 }],
    ]);
  });

  it.each(CROP_RATIOS.filter((ratio) => ratio.terms !== null).map((ratio) => [ratio.label, ratio.terms!] as const))(
    'fits %s exactly, as large as fits inside the crop and centred on it',
    (_label, terms) => {
      // Act
      const rect = fitRatio(MIDDLE, terms, SOURCE);

      // Assess
      expect(rect.width * terms.height).toBe(rect.height * terms.width);
      expect(rect.width <= MIDDLE.width && rect.height <= MIDDLE.height).toBe(true);
      expect(rect.width + terms.width > MIDDLE.width || rect.height + terms.height > MIDDLE.height).toBe(true);
      expect(Math.abs(rect.x + rect.width / 2 - 500)).toBeLessThanOrEqual(1);
      expect(Math.abs(rect.y + rect.height / 2 - 300)).toBeLessThanOrEqual(1);
    },
  );

  it('fits a ratio to the whole source when the crop is too thin to hold its smallest size', () => {
    // Act
    const rect = fitRatio({ x: 0, y: 100, width: 1000, height: 10 }, { width: 1, height: 1 }, SOURCE);

    // Assess: the minimum square, centred on the thin crop and kept inside
    expect(rect).toEqual({ x: 492, y: 97, width: MIN_CROP, height: MIN_CROP });
  });
});

describe('crop clamping', () => {
  it('rounds to whole pixels, keeps the minimum size and moves the crop back inside the source', () => {
    expect(clampCrop({ x: -20.4, y: 590.6, width: 3.2, height: 40.5 }, SOURCE)).toEqual({ x: 0, y: 559, width: MIN_CROP, height: 41 });
    expect(clampCrop({ x: 900, y: 0, width: 5000, height: 100 }, SOURCE)).toEqual({ x: 0, y: 0, width: 1000, height: 100 });
  });

  it('lets a source smaller than the minimum be cropped to its own size', () => {
    expect(clampCrop({ x: 3, y: 3, width: 2, height: 2 }, { width: 10, height: 40 })).toEqual({ x: 0, y: 3, width: 10, height: MIN_CROP });
  });

  it('stores a crop of the whole source as no crop', () => {
    expect(cropToStore({ x: 0, y: 0, width: 1000, height: 600 }, SOURCE)).toBeNull();
    expect(cropToStore({ x: -5, y: -5, width: 2000, height: 2000 }, SOURCE)).toBeNull();
    expect(cropToStore(MIDDLE, SOURCE)).toEqual(MIDDLE);
  });

  it('moves the crop by whole pixels and stops it at the edges', () => {
    expect(moveCrop(MIDDLE, 10.4, -3.6, SOURCE)).toEqual({ ...MIDDLE, x: 310, y: 196 });
    expect(moveCrop(MIDDLE, -900, 900, SOURCE)).toEqual({ ...MIDDLE, x: 0, y: 400 });
  });
});

describe('crop handles without a ratio', () => {
  it.each<[Handle, Rect]>([
    ['nw', { x: 290, y: 180, width: 410, height: 220 }],
    ['n', { x: 300, y: 180, width: 400, height: 220 }],
    ['ne', { x: 300, y: 180, width: 410, height: 220 }],
    ['e', { x: 300, y: 200, width: 410, height: 200 }],
    ['se', { x: 300, y: 200, width: 410, height: 220 }],
    ['s', { x: 300, y: 200, width: 400, height: 220 }],
    ['sw', { x: 290, y: 200, width: 410, height: 220 }],
    ['w', { x: 290, y: 200, width: 410, height: 200 }],
  ])('moves only the sides the %s handle holds', (handle, expected) => {
    // Act: outwards by 10 px across and 20 px down the page
    const dx = handle.includes('w') ? -10 : 10;
    const dy = handle.includes('n') ? -20 : 20;
    const rect = resizeCrop(MIDDLE, handle, dx, dy, SOURCE);

    // Assess
    expect(rect).toEqual(expected);
  });

  it.each<Handle>(['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'])('stops the %s handle at the source edge and at the minimum size', (handle) => {
    // Act
    const out = resizeCrop(MIDDLE, handle, handle.includes('w') ? -5000 : 5000, handle.includes('n') ? -5000 : 5000, SOURCE);
    const collapsed = resizeCrop(MIDDLE, handle, handle.includes('w') ? 5000 : -5000, handle.includes('n') ? 5000 : -5000, SOURCE);

    // Assess: the opposite sides never move
    expect(isInside(out) && isInside(collapsed)).toBe(true);
    if (handle.includes('e')) expect([out.x + out.width, collapsed.width, collapsed.x]).toEqual([1000, MIN_CROP, 300]);
    if (handle.includes('w')) expect([out.x, collapsed.width, collapsed.x + collapsed.width]).toEqual([0, MIN_CROP, 700]);
    if (handle.includes('s')) expect([out.y + out.height, collapsed.height, collapsed.y]).toEqual([600, MIN_CROP, 200]);
    if (handle.includes('n')) expect([out.y, collapsed.height, collapsed.y + collapsed.height]).toEqual([0, MIN_CROP, 400]);
  });

  it('rounds a drag of a fraction of a pixel to whole pixels', () => {
    expect(resizeCrop(MIDDLE, 'se', 10.6, -0.4, SOURCE)).toEqual({ x: 300, y: 200, width: 411, height: 200 });
  });
});

describe('crop handles with a ratio', () => {
  const start: Rect = { x: 340, y: 210, width: 320, height: 180 };

  it.each<Handle>(['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'])('keeps 16:9 exactly, in whole pixels, dragging the %s handle outwards', (handle) => {
    // Act
    const rect = resizeCrop(
      start,
      handle,
      handle.includes('w') ? -64 : handle.includes('e') ? 64 : 0,
      handle.includes('n') ? -36 : handle.includes('s') ? 36 : 0,
      SOURCE,
      SIXTEEN_NINE,
    );

    // Assess: one 16:9 step of 64 × 36 bigger, the held sides in place
    expect(rect.width * 9).toBe(rect.height * 16);
    expect(isWhole(rect) && isInside(rect)).toBe(true);
    expect(rect.width).toBe(384);
    if (handle.includes('e')) expect(rect.x).toBe(340);
    if (handle.includes('w')) expect(rect.x + rect.width).toBe(660);
    if (handle.includes('s')) expect(rect.y).toBe(210);
    if (handle.includes('n')) expect(rect.y + rect.height).toBe(390);
    // Assess: an edge keeps the crop centred across it
    if (handle === 'n' || handle === 's') expect(rect.x + rect.width / 2).toBe(500);
    if (handle === 'e' || handle === 'w') expect(rect.y + rect.height / 2).toBe(300);
  });

  it('follows the pointer projected on the diagonal from a corner, shrinking when dragged inwards on one axis', () => {
    expect(resizeCrop(start, 'se', -160, 0, SOURCE, SIXTEEN_NINE)).toEqual({ x: 340, y: 210, width: 192, height: 108 });
  });

  it.each<Handle>(['nw', 'ne', 'se', 'sw', 'n', 'e', 's', 'w'])('stops the %s handle at the source edge and at the smallest 16:9 size', (handle) => {
    // Act
    const out = resizeCrop(start, handle, handle.includes('w') ? -5000 : 5000, handle.includes('n') ? -5000 : 5000, SOURCE, SIXTEEN_NINE);
    const collapsed = resizeCrop(start, handle, handle.includes('w') ? 5000 : -5000, handle.includes('n') ? 5000 : -5000, SOURCE, SIXTEEN_NINE);

    // Assess: the largest and smallest whole 16:9 that fit on the held side
    for (const rect of [out, collapsed]) {
      expect(rect.width * 9).toBe(rect.height * 16);
      expect(isInside(rect)).toBe(true);
    }
    expect(collapsed).toMatchObject({ width: 32, height: 18 });
    const room = Math.min(handle.includes('w') || handle.includes('e') ? 660 : 1000, (handle.includes('n') || handle.includes('s') ? 390 : 600) * (16 / 9));
    expect(out.width).toBe(Math.floor(room / 16) * 16);
  });

  it('sizes a crop typed in a field to the ratio, keeping its top-left corner', () => {
    // Act
    const wide = setCropField(start, 'width', 500, SOURCE, SIXTEEN_NINE);
    const tall = setCropField(start, 'height', 5000, SOURCE, SIXTEEN_NINE);

    // Assess
    expect(wide).toEqual({ x: 340, y: 210, width: 496, height: 279 });
    expect(tall).toEqual({ x: 8, y: 42, width: 992, height: 558 });
  });
});

describe('crop fields without a ratio', () => {
  it.each<[string, Parameters<typeof setCropField>[1], number, Rect]>([
    ['moves the crop to the typed x', 'x', 100, { ...MIDDLE, x: 100 }],
    ['keeps a typed y, shortening the crop to fit below it', 'y', 550, { ...MIDDLE, y: 550, height: 50 }],
    ['stops a typed y where the smallest crop still fits', 'y', 599, { ...MIDDLE, y: 600 - MIN_CROP, height: MIN_CROP }],
    ['keeps the minimum width', 'width', 2, { ...MIDDLE, width: MIN_CROP }],
    ['moves the crop back when a typed height does not fit below it', 'height', 500, { ...MIDDLE, y: 100, height: 500 }],
    ['ignores a field left empty', 'width', Number.NaN, MIDDLE],
  ])('%s', (_name, field, value, expected) => {
    expect(setCropField(MIDDLE, field, value, SOURCE)).toEqual(expected);
  });

  it('gives exactly the crop typed as X, Y, W, H in that order, starting from the whole source', () => {
    // Arrange
    const source = { width: 1920, height: 1080 };
    let crop: Rect = { x: 0, y: 0, ...source };

    // Act
    for (const [field, value] of [
      ['x', 600],
      ['y', 60],
      ['width', 960],
      ['height', 540],
    ] as const)
      crop = setCropField(crop, field, value, source);

    // Assess
    expect(crop).toEqual({ x: 600, y: 60, width: 960, height: 540 });
  });

  it('shortens a ratio crop by whole steps when a typed x leaves less room', () => {
    expect(setCropField({ x: 0, y: 0, width: 960, height: 540 }, 'x', 200, { width: 1000, height: 600 }, SIXTEEN_NINE)).toEqual({
      x: 200,
      y: 0,
      width: 800,
      height: 450,
    });
  });
});
