import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, EXPORT_MAX_BODY_BYTES, EXPORT_MAX_PIXELS, QUALITY_PRESETS } from '#shared/schemas/export.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { hasGpsTag, jpegWithGps, pngBombHeader } from '../support/images.ts';
import { expectedEnvelope } from '../support/expectations.ts';

let runtime: TestRuntime;
let photo: Buffer;

beforeAll(async () => {
  runtime = await startTestRuntime();
  photo = await jpegWithGps(480, 270);
});

afterAll(async () => {
  await runtime?.dispose();
});

const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

function form(fields: Record<string, string>, image?: { bytes: Buffer; type: string; name?: string }): FormData {
  const data = new FormData();
  if (image) data.append('image', new Blob([new Uint8Array(image.bytes)], { type: image.type }), image.name ?? 'upload');
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const post = (body: FormData | string, headers?: Record<string, string>) => fetch(`${runtime.url}/api/export`, { method: 'POST', body, headers });

describe('POST /api/export', () => {
  const pairs = EXPORT_FORMATS.flatMap((format) => QUALITY_PRESETS.map((preset) => [format, preset] as const));

  it('is given an input with GPS EXIF to strip', async () => {
    expect(hasGpsTag((await sharp(photo).metadata()).exif)).toBe(true);
  });

  it.each(pairs)('answers %s (%s) with raw image bytes of the input size and no EXIF', async (format, qualityPreset) => {
    // Act
    const response = await post(form({ format, qualityPreset }, { bytes: photo, type: 'image/jpeg', name: 'team photo.jpg' }));

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(`image/${format}`);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="team photo.${format === 'jpeg' ? 'jpg' : format}"`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    const { format: written, width, height, exif, icc, xmp } = await sharp(bytes).metadata();
    expect({ written, width, height, exif, icc, xmp }).toEqual({ written: format, width: 480, height: 270, exif: undefined, icc: undefined, xmp: undefined });
  });

  it.each([
    ['no image', () => form({ format: 'png', qualityPreset: 'high' }), 'invalid_request'],
    ['no format', () => form({ qualityPreset: 'high' }, { bytes: photo, type: 'image/jpeg' }), 'invalid_request'],
    ['no quality preset', () => form({ format: 'png' }, { bytes: photo, type: 'image/jpeg' }), 'invalid_request'],
    ['an unknown format', () => form({ format: 'gif', qualityPreset: 'high' }, { bytes: photo, type: 'image/jpeg' }), 'unsupported_value'],
    ['an unknown preset', () => form({ format: 'png', qualityPreset: 'best' }, { bytes: photo, type: 'image/jpeg' }), 'unsupported_value'],
    ['an image declared as GIF', () => form({ format: 'png', qualityPreset: 'high' }, { bytes: photo, type: 'image/gif' }), 'unsupported_value'],
    ['JPEG bytes declared as PNG', () => form({ format: 'png', qualityPreset: 'high' }, { bytes: photo, type: 'image/png' }), 'invalid_request'],
    [
      'bytes that are no image',
      () => form({ format: 'png', qualityPreset: 'high' }, { bytes: Buffer.from('%PDF-1.7 not an image'), type: 'image/png' }),
      'invalid_request',
    ],
    ['the image as a text field', () => form({ image: 'iVBORw0KGgo=', format: 'png', qualityPreset: 'high' }), 'invalid_request'],
  ])('answers %s with 400 %s', async (_case, build, code) => {
    const response = await post(build());

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(envelope(400, code));
  });

  it('answers a JSON body with 400 invalid_request naming multipart', async () => {
    const response = await post(JSON.stringify({ format: 'png', qualityPreset: 'high' }), { 'content-type': 'application/json' });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ...envelope(400, 'invalid_request'), hint: expect.stringContaining('multipart/form-data') });
  });

  it('answers a body over the limit with 413 and the limit', async () => {
    const big = Buffer.alloc(EXPORT_MAX_BODY_BYTES + 1, 0xff);

    const response = await post(form({ format: 'png', qualityPreset: 'high' }, { bytes: big, type: 'image/png' }));

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ ...envelope(413, 'invalid_request'), limit: EXPORT_MAX_BODY_BYTES });
  });

  it('answers an image whose header claims too many pixels with 413 before decoding it', async () => {
    const response = await post(form({ format: 'png', qualityPreset: 'high' }, { bytes: pngBombHeader(50_000, 50_000), type: 'image/png' }));

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ ...envelope(413, 'invalid_request'), limit: EXPORT_MAX_PIXELS });
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const response = await fetch(`${runtime.url}/api/export`, { method });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual(envelope(405, 'method_not_allowed'));
  });

  it('answers the CORS preflight of a cross-origin upload', async () => {
    const response = await fetch(`${runtime.url}/api/export`, {
      method: 'OPTIONS',
      headers: { origin: 'https://editor.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });
});
