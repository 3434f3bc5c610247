/** What changed between two pictures, by pixelmatch (as Playwright's toHaveScreenshot); sizes that differ compare top left on top left. */
import pixelmatch from 'pixelmatch';
import sharp from 'sharp';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Comparison {
  ratio: number;
  pixels: number;
  width: number;
  height: number;
  sizeChanged: boolean;
  /** Changed pixels red over a faded copy of the new picture; the area only one picture covers, red. */
  diffPng: Buffer;
}

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

const RED = Buffer.from([255, 0, 0, 255]);
/** Masks are painted in one colour on both pictures, so nothing under them differs. */
const MASK = Buffer.from([255, 0, 255, 255]);

async function decode(png: Uint8Array): Promise<Raw> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function paint(image: Raw, rect: Rect, colour: Buffer): void {
  const right = Math.min(image.width, rect.x + rect.width);
  const bottom = Math.min(image.height, rect.y + rect.height);
  if (right <= rect.x) return;
  for (let y = rect.y; y < bottom; y += 1) image.data.fill(colour, (y * image.width + rect.x) * 4, (y * image.width + right) * 4);
}

/** The top-left `width` × `height` of an image, as its own buffer (the image itself when it is that size). */
function crop(image: Raw, width: number, height: number): Buffer {
  if (image.width === width && image.height === height) return image.data;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) image.data.copy(out, y * width * 4, y * image.width * 4, (y * image.width + width) * 4);
  return out;
}

/** `before` the baseline, `after` the new picture; `masks` in image pixels, painted over both first. */
export async function comparePictures(before: Uint8Array, after: Uint8Array, options: { threshold: number; masks?: readonly Rect[] }): Promise<Comparison> {
  const [older, newer] = await Promise.all([decode(before), decode(after)]);
  for (const rect of options.masks ?? []) {
    paint(older, rect, MASK);
    paint(newer, rect, MASK);
  }
  const width = Math.max(older.width, newer.width);
  const height = Math.max(older.height, newer.height);
  const overlap = { width: Math.min(older.width, newer.width), height: Math.min(older.height, newer.height) };
  const diff = Buffer.alloc(overlap.width * overlap.height * 4);
  const changedInside = pixelmatch(
    crop(older, overlap.width, overlap.height),
    crop(newer, overlap.width, overlap.height),
    diff,
    overlap.width,
    overlap.height,
    {
      threshold: options.threshold,
    },
  );
  const sizeChanged = older.width !== newer.width || older.height !== newer.height;
  const whole: Raw = { data: diff, ...overlap };
  if (sizeChanged) {
    whole.data = Buffer.alloc(width * height * 4, RED);
    whole.width = width;
    whole.height = height;
    for (let y = 0; y < overlap.height; y += 1) diff.copy(whole.data, y * width * 4, y * overlap.width * 4, (y + 1) * overlap.width * 4);
  }
  const pixels = changedInside + (width * height - overlap.width * overlap.height);
  const diffPng = await sharp(whole.data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  return { ratio: pixels / (width * height), pixels, width, height, sizeChanged, diffPng };
}
