/**
 * Redaction boxes painted into the picture's pixels: solid, after the screenshot and before the PNG
 * leaves the capture, so nothing the page styles can draw over, around or through them.
 */
import sharp from 'sharp';
import type { OutputInfo, Sharp } from 'sharp';
import type { Redaction } from '#shared/schemas/redaction.ts';

/** What a picture must have painted over it before it is encoded for the answer. */
export interface Cover {
  /** Boxes are expected: the screenshot may be encoded fast, since it is decoded and painted again. */
  expected: boolean;
  /** Called once the picture is taken: the boxes, in its pixels, to paint solid black into it. */
  boxes(size: { width: number; height: number }): Promise<readonly Redaction[]>;
}

/** Fills each box with opaque black in raw pixels (filling is cheaper than compositing one image per box). */
function fill(data: Buffer, info: OutputInfo, boxes: readonly Redaction[]): void {
  const black = Buffer.alloc(info.channels, 0);
  if (info.channels === 4 || info.channels === 2) black[info.channels - 1] = 255;
  const row = info.width * info.channels;
  for (const box of boxes) {
    const left = Math.max(0, box.x);
    const right = Math.min(info.width, box.x + box.width);
    if (right <= left) continue;
    for (let y = Math.max(0, box.y); y < Math.min(info.height, box.y + box.height); y += 1)
      data.fill(black, y * row + left * info.channels, y * row + right * info.channels);
  }
}

const bytes = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);

/** The picture sharp is making (tiles joined, say) as a PNG, with the cover's boxes painted in. */
export async function paintImage(image: Sharp, size: { width: number; height: number }, cover: Cover | undefined): Promise<Uint8Array> {
  const boxes = cover ? await cover.boxes(size) : [];
  if (boxes.length === 0) return bytes(await image.png().toBuffer());
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  fill(data, info, boxes);
  return bytes(
    await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .png()
      .toBuffer(),
  );
}

/** A screenshot with the cover's boxes painted in; one that needs none is answered as the browser encoded it. */
export async function paintPng(png: Uint8Array, cover: Cover | undefined): Promise<Uint8Array> {
  if (!cover) return png;
  const image = sharp(png, { limitInputPixels: false });
  const { width = 0, height = 0 } = await image.metadata();
  const boxes = await cover.boxes({ width, height });
  if (boxes.length === 0) return png;
  return paintImage(image, { width, height }, { expected: true, boxes: async () => boxes });
}
