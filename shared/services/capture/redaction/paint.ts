/** Boxes painted solid into the pixels after the screenshot, so nothing the page styles can draw over, around or through them. */
import sharp from 'sharp';
import type { OutputInfo, Sharp } from 'sharp';
import type { Redaction } from '#shared/schemas/redaction.ts';

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

type Raw = { data: Buffer; info: OutputInfo };

async function painted({ data, info }: Raw, boxes: readonly Redaction[]): Promise<Uint8Array> {
  fill(data, info, boxes);
  return bytes(
    await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .png()
      .toBuffer(),
  );
}

/** The cover's boxes and, when expected, the raw pixels, made at once so decoding overlaps the page's second read. */
async function boxesAndPixels(image: Sharp, size: { width: number; height: number }, cover: Cover): Promise<{ boxes: readonly Redaction[]; raw?: Raw }> {
  const decoding = cover.expected ? image.raw().toBuffer({ resolveWithObject: true }) : undefined;
  // Nothing waits for the decoding if the boxes fail (the capture's time is up).
  decoding?.catch(() => undefined);
  const boxes = await cover.boxes(size);
  return { boxes, ...(decoding ? { raw: await decoding } : {}) };
}

/** The picture sharp is making (tiles joined, say) as a PNG, with the cover's boxes painted in. */
export async function paintImage(image: Sharp, size: { width: number; height: number }, cover: Cover | undefined): Promise<Uint8Array> {
  if (!cover) return bytes(await image.png().toBuffer());
  const { boxes, raw } = await boxesAndPixels(image, size, cover);
  if (raw) return painted(raw, boxes);
  if (boxes.length === 0) return bytes(await image.png().toBuffer());
  return painted(await image.raw().toBuffer({ resolveWithObject: true }), boxes);
}

/** A screenshot with the cover's boxes painted in; one that needs none is answered as the browser encoded it. */
export async function paintPng(png: Uint8Array, cover: Cover | undefined): Promise<Uint8Array> {
  if (!cover) return png;
  const image = sharp(png, { limitInputPixels: false });
  const { width = 0, height = 0 } = await image.metadata();
  const { boxes, raw } = await boxesAndPixels(image, { width, height }, cover);
  if (boxes.length === 0) return png;
  return painted(raw ?? (await image.raw().toBuffer({ resolveWithObject: true })), boxes);
}
