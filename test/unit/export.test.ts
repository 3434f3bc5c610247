import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContentTooLargeError, InvalidRequestError, UnsupportedValueError } from '#shared/errors.ts';
import { LAMBDA_MAX_BINARY_BYTES } from '#shared/http/reply.ts';
import { EXPORT_DESCRIPTION } from '#shared/docs/operations.ts';
import { EXPORT_FORMATS, EXPORT_MAX_PIXELS, QUALITY_PRESETS, presetTable } from '#shared/schemas/export.ts';
import { downloadName, exportImage } from '#shared/services/export.ts';
import { hasGpsTag, jpegWithGps, pngBombHeader, screenshotLike } from '../support/images.ts';

/** The limit the route hands the service: a Lambda response's. */
const LIMITS = { maxResponseBytes: LAMBDA_MAX_BINARY_BYTES };
const FORMAT_PAIRS = EXPORT_FORMATS.flatMap((format) => QUALITY_PRESETS.map((preset) => [format, preset] as const));
/** What a check of the output needs from sharp's metadata; toEqual treats a missing key as undefined. */
async function summary(bytes: Buffer) {
  const { format, width, height, exif, icc, xmp, iptc, orientation } = await sharp(bytes).metadata();
  return { format, width, height, exif, icc, xmp, iptc, orientation };
}
const NO_METADATA = { exif: undefined, icc: undefined, xmp: undefined, iptc: undefined, orientation: undefined };

let photo: Buffer;
let screenshot: Buffer;

beforeAll(async () => {
  // Prepare: small inputs keep the 2-core CI fast; the bench measures full-size ones.
  photo = await jpegWithGps(320, 200);
  screenshot = await screenshotLike(640, 400);
});

describe('exportImage', () => {
  it('starts from an input that really carries GPS EXIF', async () => {
    expect(hasGpsTag((await sharp(photo).metadata()).exif)).toBe(true);
  });

  it.each(FORMAT_PAIRS)('writes %s (%s) with the input dimensions and no EXIF, GPS or other metadata', async (format, preset) => {
    // Act
    const out = await exportImage(LIMITS, { bytes: photo, declaredType: 'image/jpeg', fileName: 'holiday.jpg', format, preset });

    // Assess
    expect(await summary(out.bytes)).toEqual({ format, width: 320, height: 200, ...NO_METADATA });
    expect(out).toMatchObject({ contentType: `image/${format}`, width: 320, height: 200 });
  });

  it.each(FORMAT_PAIRS)('writes a PNG screenshot as %s (%s) at its own size', async (format, preset) => {
    const out = await exportImage(LIMITS, { bytes: screenshot, declaredType: 'image/png', fileName: 'shot.png', format, preset });

    expect(await sharp(out.bytes).metadata()).toMatchObject({ format, width: 640, height: 400 });
  });

  it('turns the image upright from its EXIF orientation', async () => {
    // Prepare: stored 320×200, displayed rotated a quarter turn (orientation 6).
    const rotated = await jpegWithGps(320, 200, 6);

    const out = await exportImage(LIMITS, { bytes: rotated, declaredType: 'image/jpeg', fileName: 'r.jpg', format: 'png', preset: 'high' });

    expect(await summary(out.bytes)).toEqual({ format: 'png', width: 200, height: 320, ...NO_METADATA });
  });

  it('converts colours from an embedded profile to sRGB and drops the profile', async () => {
    // Prepare: sRGB (40, 200, 60) stored as Display P3 values, with the P3 profile attached.
    const pixels = Buffer.alloc(8 * 8 * 3);
    for (let i = 0; i < 64; i++) pixels.set([40, 200, 60], i * 3);
    const p3 = await sharp(pixels, { raw: { width: 8, height: 8, channels: 3 } })
      .withIccProfile('p3')
      .png()
      .toBuffer();
    const stored = await sharp(p3).keepIccProfile().raw().toBuffer();

    const out = await exportImage(LIMITS, { bytes: p3, declaredType: 'image/png', fileName: 'p3.png', format: 'png', preset: 'high' });

    const written = await sharp(out.bytes).raw().toBuffer();
    expect([...stored.subarray(0, 3)]).not.toEqual([40, 200, 60]);
    expect([...written.subarray(0, 3)].map((value, i) => Math.abs(value - [40, 200, 60][i]!))).toEqual([
      expect.toSatisfy((d: number) => d <= 2),
      expect.toSatisfy((d: number) => d <= 2),
      expect.toSatisfy((d: number) => d <= 2),
    ]);
    expect((await sharp(out.bytes).metadata()).icc).toBeUndefined();
  });

  it.each([
    ['png', 4],
    ['webp', 4],
    ['jpeg', 3],
  ] as const)('keeps transparency where %s can hold it (%i channels)', async (format, channels) => {
    const transparent = await sharp({ create: { width: 16, height: 16, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();

    const out = await exportImage(LIMITS, { bytes: transparent, declaredType: 'image/png', fileName: 't.png', format, preset: 'high' });

    const { data, info } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(channels);
    // JPEG has no alpha: transparent pixels become white, not black.
    if (format === 'jpeg') expect(Math.min(...data.subarray(0, 3))).toBeGreaterThan(240);
  });

  it.each([
    ['image/gif', 'unsupported'],
    ['application/octet-stream', 'unsupported'],
    ['', 'unsupported'],
  ])('refuses a part declared %j with unsupported_value', async (declaredType) => {
    const error = await exportImage(LIMITS, { bytes: photo, declaredType, fileName: 'x', format: 'png', preset: 'high' }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(UnsupportedValueError);
    expect(error).toMatchObject({ status: 400, code: 'unsupported_value' });
  });

  it('accepts a declared type with parameters and any letter case', async () => {
    const out = await exportImage(LIMITS, { bytes: photo, declaredType: 'Image/JPEG; charset=binary', fileName: 'x', format: 'png', preset: 'low' });

    expect(out.contentType).toBe('image/png');
  });

  it.each([
    ['PNG bytes declared as JPEG', () => screenshot, 'image/jpeg', /declared image\/jpeg but its bytes are PNG/],
    ['JPEG bytes declared as WebP', () => photo, 'image/webp', /declared image\/webp but its bytes are JPEG/],
    ['text declared as PNG', () => Buffer.from('hello, not an image'), 'image/png', /not a readable PNG/],
    ['a PNG cut in half', () => screenshot.subarray(0, Math.floor(screenshot.length / 2)), 'image/png', /not a readable PNG/],
  ])('refuses %s with invalid_request', async (_case, bytes, declaredType, hint) => {
    const error = await exportImage(LIMITS, { bytes: bytes(), declaredType, fileName: 'x', format: 'webp', preset: 'medium' }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', hint: expect.stringMatching(hint) });
  });

  it('refuses a decompression bomb from its header with 413', async () => {
    const bomb = pngBombHeader(100_000, 100_000);

    const error = await exportImage(LIMITS, { bytes: bomb, declaredType: 'image/png', fileName: 'bomb.png', format: 'png', preset: 'high' }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect(error).toMatchObject({ status: 413, code: 'invalid_request', extra: { limit: EXPORT_MAX_PIXELS } });
  });

  it('answers 413 when the output would not fit a Lambda response', async () => {
    // Prepare: noise compresses to nothing, so a lossless PNG of it outgrows the 4.5 MB response limit.
    const noise = await sharp({ create: { width: 1400, height: 1400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .jpeg({ quality: 100 })
      .toBuffer();

    const error = await exportImage(LIMITS, { bytes: noise, declaredType: 'image/jpeg', fileName: 'n.jpg', format: 'png', preset: 'high' }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect(error).toMatchObject({ status: 413, message: 'Exported image too large', extra: { limit: 4_500_000 } });
  });
});

describe('downloadName', () => {
  it.each([
    ['holiday.jpg', 'png', 'holiday.png'],
    ['my shot.final.PNG', 'jpeg', 'my shot.final.jpg'],
    ['C:\\Users\\me\\photo.webp', 'webp', 'photo.webp'],
    ['../../etc/passwd', 'png', 'passwd.png'],
    ['"quoted";\r\nX-Injected: 1.png', 'png', 'quoted-X-Injected- 1.png'],
    ['', 'jpeg', 'export.jpg'],
    ['日本語.png', 'png', 'export.png'],
  ] as const)('names %j exported as %s %j', (fileName, format, expected) => {
    expect(downloadName(fileName, format)).toBe(expected);
  });
});

describe('published presets', () => {
  it('puts the same preset table in docs/capture.md as in the operation description', () => {
    const guide = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'capture.md'), 'utf8');

    // Cells compared trimmed: a formatter may pad a Markdown table's columns.
    const cells = (text: string) => text.replace(/ *\| */g, '|').replace(/-{3,}/g, '---');

    expect(EXPORT_DESCRIPTION).toContain(presetTable());
    expect(cells(guide)).toContain(cells(presetTable()));
  });
});
