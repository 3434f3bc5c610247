/**
 * Test and benchmark inputs made in code, so no binary fixture has to be trusted or kept in sync:
 * a screenshot-like image (flat colours, sharp text edges, a few gradients) and a photo-like one
 * (smooth detail at several scales plus sensor grain), both deterministic for a given seed.
 */
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A small deterministic PRNG (mulberry32): the same seed gives the same image on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const WORDS =
  'the quick brown fox jumps over lazy dog release notes workspace export preset image proxy tweet lookup canvas editor screenshot capture device mobile desktop scheme dark light'.split(
    ' ',
  );

/** An app-window screenshot as PNG: title bar, sidebar, paragraphs of text, buttons, a code block and a chart. */
export async function screenshotLike(width = 1920, height = 1080, seed = 1): Promise<Buffer> {
  const next = random(seed);
  const line = (count: number) => Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
  const parts: string[] = [
    `<rect width="${width}" height="${height}" fill="#f6f8fa"/>`,
    `<rect width="${width}" height="56" fill="#24292f"/>`,
    `<text x="24" y="36" font-family="DejaVu Sans, sans-serif" font-size="20" fill="#ffffff">Easel — ${escapeXml(line(3))}</text>`,
    `<rect y="56" width="260" height="${height - 56}" fill="#ffffff" stroke="#d0d7de"/>`,
  ];
  for (let i = 0; i < Math.floor((height - 80) / 36); i++) {
    parts.push(`<text x="24" y="${96 + i * 36}" font-family="DejaVu Sans, sans-serif" font-size="15" fill="#57606a">${escapeXml(line(2))}</text>`);
  }
  const left = 300;
  const contentWidth = width - left - 40;
  parts.push(`<text x="${left}" y="110" font-family="DejaVu Sans, sans-serif" font-size="30" font-weight="bold" fill="#1f2328">${escapeXml(line(4))}</text>`);
  let y = 150;
  while (y < height * 0.55) {
    parts.push(
      `<text x="${left}" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#1f2328">${escapeXml(line(Math.max(4, Math.floor(contentWidth / 70))))}</text>`,
    );
    y += 26;
  }
  parts.push(
    `<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#0969da"/><stop offset="1" stop-color="#8250df"/></linearGradient></defs>`,
    `<rect x="${left}" y="${y}" width="160" height="40" rx="6" fill="url(#g)"/>`,
    `<text x="${left + 24}" y="${y + 26}" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#fff">Export image</text>`,
    `<rect x="${left + 180}" y="${y}" width="120" height="40" rx="6" fill="#ffffff" stroke="#d0d7de"/>`,
  );
  y += 70;
  const codeHeight = Math.max(60, height - y - 40);
  parts.push(`<rect x="${left}" y="${y}" width="${contentWidth / 2 - 10}" height="${codeHeight}" rx="6" fill="#0d1117"/>`);
  for (let row = y + 28; row < y + codeHeight - 10; row += 22) {
    parts.push(
      `<text x="${left + 16}" y="${row}" font-family="DejaVu Sans Mono, monospace" font-size="14" fill="${next() > 0.5 ? '#7ee787' : '#e6edf3'}">${escapeXml(`const ${line(1)} = ${line(2).replace(/ /g, '.')}();`)}</text>`,
    );
  }
  const chartLeft = left + contentWidth / 2 + 10;
  const bars = 14;
  for (let i = 0; i < bars; i++) {
    const barHeight = Math.floor(next() * (codeHeight - 20)) + 10;
    parts.push(
      `<rect x="${chartLeft + i * ((contentWidth / 2 - 10) / bars)}" y="${y + codeHeight - barHeight}" width="${(contentWidth / 2 - 10) / bars - 6}" height="${barHeight}" fill="${i % 2 ? '#54aeff' : '#0969da'}"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
}

/** One channel of a smooth random field: random values on a coarse grid, upscaled with a cubic kernel. */
async function field(width: number, height: number, cell: number, next: () => number): Promise<Buffer> {
  const w = Math.max(2, Math.ceil(width / cell));
  const h = Math.max(2, Math.ceil(height / cell));
  const coarse = Buffer.alloc(w * h);
  for (let i = 0; i < coarse.length; i++) coarse[i] = Math.floor(next() * 256);
  return (
    sharp(coarse, { raw: { width: w, height: h, channels: 1 } })
      .resize(width, height, { kernel: 'cubic', fit: 'fill' })
      // sharp outputs sRGB (three channels) unless told to keep the one band.
      .extractChannel(0)
      .raw()
      .toBuffer()
  );
}

/**
 * Raw RGB pixels of a photo-like image: luminance with detail at four scales, a sky-to-ground
 * gradient with a horizon edge, gentle colour variation (chroma moves much less than luminance
 * in real scenes) and per-pixel sensor grain.
 */
export async function photoLikeRaw(width = 1920, height = 1080, seed = 7): Promise<Buffer> {
  const next = random(seed);
  const [l1, l2, l3, l4, cb, cr] = await Promise.all(
    [320, 64, 12, 3, 200, 200].map((cell) => field(width, height, Math.max(1, Math.round((cell * width) / 1920)), next)),
  );
  const out = Buffer.alloc(width * height * 3);
  const horizon = Math.floor(height * 0.45);
  const clamp = (value: number) => (value < 0 ? 0 : Math.min(value, 255));
  for (let y = 0, i = 0; y < height; y++) {
    const sky = y < horizon;
    for (let x = 0; x < width; x++, i++) {
      const detail = (l1![i]! - 128) * 0.45 + (l2![i]! - 128) * 0.3 + (l3![i]! - 128) * 0.2 + (l4![i]! - 128) * 0.1;
      const base = sky ? 200 - (y / horizon) * 50 : 95 + ((y - horizon) / (height - horizon)) * 30;
      const luma = base + detail * (sky ? 0.35 : 1) + (next() - 0.5) * 10;
      const blue = (cb![i]! - 128) * 0.22 + (sky ? 40 : -18);
      const red = (cr![i]! - 128) * 0.22 + (sky ? -12 : 10);
      out[i * 3] = clamp(luma + 1.402 * red);
      out[i * 3 + 1] = clamp(luma - 0.344 * blue - 0.714 * red);
      out[i * 3 + 2] = clamp(luma + 1.772 * blue);
    }
  }
  return out;
}

/** A photo-like JPEG (camera-style quality 92), the usual shape of a photo upload. */
export async function photoLike(width = 1920, height = 1080, seed = 7): Promise<Buffer> {
  const raw = await photoLikeRaw(width, height, seed);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Camera-style EXIF with a GPS position, the metadata an export must never pass on. */
export const GPS_EXIF = {
  IFD0: { Make: 'EaselTestCam', Model: 'Model 1', Copyright: 'Test' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 3230/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 4366/100' },
};

/** A photo-like JPEG carrying GPS EXIF, optionally with an EXIF orientation (6 = rotate 90° clockwise to display). */
export async function jpegWithGps(width: number, height: number, orientation?: number): Promise<Buffer> {
  const raw = await photoLikeRaw(width, height, 11);
  let image = sharp(raw, { raw: { width, height, channels: 3 } }).withExif(GPS_EXIF);
  if (orientation !== undefined) image = image.withMetadata({ orientation });
  return image.jpeg({ quality: 90 }).toBuffer();
}

/** True when EXIF data holds a GPS IFD pointer (tag 0x8825), in either byte order. */
export function hasGpsTag(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
}

/**
 * A PNG that is only a header claiming `width` × `height` pixels: the shape of a decompression
 * bomb, which must be refused from its header before any pixel is decoded.
 */
export function pngBombHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An RGB colour. */
export type Colour = readonly [number, number, number];

/** A base64 PNG's size and its pixels of a colour (±8 per channel, for PNG rounding): in all, or down column x. */
export async function readPixels(base64: string) {
  const { data, info } = await sharp(Buffer.from(base64, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): Colour => {
    const i = (y * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  const near = (a: Colour, b: Colour) => a.every((value, i) => Math.abs(value - b[i]!) <= 8);
  /** How many pixels of the image have this colour. */
  const count = (colour: Colour) => {
    let n = 0;
    for (let i = 0; i < data.length; i += 3) if (near([data[i]!, data[i + 1]!, data[i + 2]!], colour)) n += 1;
    return n;
  };
  /** How many rows have this colour in column x. */
  const rows = (x: number, colour: Colour) => {
    let n = 0;
    for (let y = 0; y < info.height; y += 1) if (near(at(x, y), colour)) n += 1;
    return n;
  };
  return { width: info.width, height: info.height, at, count, rows };
}
