import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Redaction } from '#shared/schemas/redaction.ts';
import { paintImage, paintPng } from '#shared/services/capture/redaction/paint.ts';

const BOX: Redaction = { kind: 'email', x: 2, y: 1, width: 3, height: 2 };
const cover = (boxes: Redaction[]) => ({ expected: true, boxes: async () => boxes });

/** A white picture of 8×4, with or without an alpha channel, as a PNG. */
const white = (channels: 3 | 4) =>
  sharp({ create: { width: 8, height: 4, channels, background: { r: 255, g: 255, b: 255, alpha: 1 } } })
    .png()
    .toBuffer();

async function rgba(png: Uint8Array): Promise<number[][]> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: info.width * info.height }, (_, p) => Array.from(data.subarray(p * 4, p * 4 + 4)));
}

describe('paintPng', () => {
  it.each([3, 4] as const)('fills each box opaque black and leaves every other pixel as it was (%i channels)', async (channels) => {
    // Act
    const painted = await paintPng(await white(channels), cover([BOX]));

    // Assess
    const inside = (p: number) => p % 8 >= 2 && p % 8 < 5 && Math.floor(p / 8) >= 1 && Math.floor(p / 8) < 3;
    expect(await rgba(painted)).toEqual(Array.from({ length: 32 }, (_, p) => (inside(p) ? [0, 0, 0, 255] : [255, 255, 255, 255])));
  });

  it('answers a picture with no box to paint as it was taken', async () => {
    const png = await white(4);
    expect(await paintPng(png, cover([]))).toBe(png);
    expect(await paintPng(png, undefined)).toBe(png);
  });

  it("cuts a box at the picture's edge", async () => {
    const painted = await rgba(await paintPng(await white(3), cover([{ ...BOX, x: 6, width: 10 }])));
    expect(painted.filter(([r]) => r === 0)).toHaveLength(4);
  });
});

describe('paintImage', () => {
  it('paints the boxes into a picture sharp is making, asking for them at its size', async () => {
    // Prepare: two tiles joined one above the other.
    const tiles = await Promise.all([white(3), white(3)]);
    let asked: unknown;

    const boxes = async (size: { width: number; height: number }) => {
      asked = size;
      return [{ ...BOX, y: 5 }];
    };

    // Act
    const painted = await paintImage(sharp(tiles, { join: { across: 1 } }), { width: 8, height: 8 }, { expected: true, boxes });

    // Assess
    expect(asked).toEqual({ width: 8, height: 8 });
    expect((await rgba(painted)).filter(([r]) => r === 0)).toHaveLength(6);
  });
});
