/**
 * The export's file from its pixels, made as /api/export's sharp makes it for each format and
 * preset: mozjpeg and libwebp built for the browser (Squoosh's WebAssembly, by jSquash); PNGs
 * filtered as libpng does and deflated by the browser's zlib, or reduced to a palette for oxipng.
 */
import encodeJpeg, { init as initJpeg } from '@jsquash/jpeg/encode.js';
import encodeWebp, { init as initWebp } from '@jsquash/webp/encode.js';
import initOxipng, { optimise_raw as optimiseRaw } from '@jsquash/oxipng/codec/pkg/squoosh_oxipng.js';
import jpegWasm from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm';
import webpWasm from '@jsquash/webp/codec/enc/webp_enc.wasm';
import webpSimdWasm from '@jsquash/webp/codec/enc/webp_enc_simd.wasm';
// @ts-expect-error: its .d.ts types the module's exports, but esbuild's file loader makes the import its URL.
import oxipngWasm from '@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm';
import { truecolourPng } from './png-writer.ts';
import type { FormatId, QualityId } from '../model/presets.ts';
import { quantize } from './quantize.ts';

/** Resolved against this script, which sits beside the WebAssembly files. */
const url = (file: string) => new URL(file, import.meta.url).href;
const WASM: Record<string, string> = { 'mozjpeg_enc.wasm': url(jpegWasm), 'webp_enc.wasm': url(webpWasm), 'webp_enc_simd.wasm': url(webpSimdWasm) };
const locateFile = (file: string) => WASM[file] ?? file;

/** Each codec is compiled once, on the first export that needs it. */
const ready: Partial<Record<FormatId, Promise<unknown>>> = {};

/** As shared/schemas/export.ts's presets: mozjpeg quality and chroma subsampling (1 is 4:4:4, 2 is 4:2:0). */
const JPEG = { high: { quality: 90, chroma: 1 }, medium: { quality: 80, chroma: 2 }, low: { quality: 60, chroma: 2 } } as const;
const WEBP = { high: { quality: 90, sharpYuv: 1 }, medium: { quality: 80, sharpYuv: 0 }, low: { quality: 60, sharpYuv: 0 } } as const;
/** sharp's palettes (libimagequant) for medium and low; high is lossless. */
const PNG_COLOURS = { medium: 256, low: 64 } as const;
/** oxipng's effort on a palette image: its default, as small as sharp's zlib level 9 at a fraction of higher levels' time. */
const OXIPNG_LEVEL = 2;

const TYPES: Record<FormatId, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

const initJpegOnce = () => (ready.jpeg ??= initJpeg({ locateFile }));
const initWebpOnce = () => (ready.webp ??= initWebp({ locateFile }));
const initOxipngOnce = () => (ready.png ??= initOxipng(url(oxipngWasm)));

/** Fetches and compiles every codec now, so an export works even once the server is out of reach. */
export async function warmCodecs(): Promise<void> {
  await Promise.all([initJpegOnce(), initWebpOnce(), initOxipngOnce()]);
}

/** Encodes `image` as `format` at `quality`; blocks its thread while it runs, so it belongs in a worker. */
export async function encodeImage(image: ImageData, format: FormatId, quality: QualityId): Promise<Blob> {
  let bytes: ArrayBuffer | Uint8Array;
  if (format === 'jpeg') {
    await initJpegOnce();
    const { quality: q, chroma } = JPEG[quality];
    bytes = await encodeJpeg(image, { quality: q, auto_subsample: false, chroma_subsample: chroma });
  } else if (format === 'webp') {
    await initWebpOnce();
    const { quality: q, sharpYuv } = WEBP[quality];
    bytes = await encodeWebp(image, { quality: q, method: 4, use_sharp_yuv: sharpYuv });
  } else if (quality === 'high') {
    return truecolourPng(image);
  } else {
    await initOxipngOnce();
    quantize(image, PNG_COLOURS[quality]);
    bytes = optimiseRaw(image.data, image.width, image.height, OXIPNG_LEVEL, false, false);
  }
  return new Blob([bytes as BlobPart], { type: TYPES[format] });
}
