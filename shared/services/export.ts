/** Image export: decode an upload, check it is what it claims to be, re-encode it with the preset. */
import sharp from 'sharp';
import type { Metadata, OutputInfo, Sharp, SharpOptions } from 'sharp';
import { ContentTooLargeError, InvalidRequestError, UnsupportedValueError } from '#shared/errors.ts';
import { emitMetrics } from '#shared/metrics.ts';
import { mediaTypeOf } from '#shared/net/media-type.ts';
import { EXPORT_MAX_PIXELS, EXPORT_PRESETS, INPUT_TYPES } from '#shared/schemas/export.ts';
import type { EncoderSettings, ExportFormat, QualityPreset } from '#shared/schemas/export.ts';

// Every request decodes different bytes: libvips' operation cache would only hold memory between invocations.
sharp.cache(false);

export interface ExportDeps {
  /** The most bytes a response can carry: the platform's cap, which the handler supplies. */
  maxResponseBytes: number;
}

export interface ExportInput {
  bytes: Buffer;
  declaredType: string;
  /** File name the client sent, used only to name the download. */
  fileName: string;
  format: ExportFormat;
  preset: QualityPreset;
}

export interface ExportedImage {
  bytes: Buffer;
  contentType: `image/${ExportFormat}`;
  /** Download name: the upload's base name (sanitised) with the output extension. */
  fileName: string;
  width: number;
  height: number;
}

const EXTENSIONS: Record<ExportFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/** The upload's base name reduced to safe ASCII, for Content-Disposition; 'export' when nothing is left. */
export function downloadName(fileName: string, format: ExportFormat): string {
  const base = fileName
    .replace(/^.*[\\/]/, '')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^A-Za-z0-9._ -]+/g, '-')
    .replace(/^[-. ]+|[-. ]+$/g, '')
    .slice(0, 100);
  return `${base || 'export'}.${EXTENSIONS[format]}`;
}

function declaredFormat(declaredType: string): ExportFormat {
  const type = mediaTypeOf(declaredType);
  const format = (INPUT_TYPES as Record<string, ExportFormat>)[type];
  if (!format) {
    throw new UnsupportedValueError(
      'Unsupported image type',
      `Declare the image part as image/png, image/jpeg or image/webp (got ${type || 'no Content-Type'}).`,
    );
  }
  return format;
}

function encode(pipeline: Sharp, settings: EncoderSettings): Sharp {
  switch (settings.format) {
    case 'jpeg':
      return pipeline.jpeg(settings.options);
    case 'webp':
      return pipeline.webp(settings.options);
    case 'png':
      return pipeline.png(settings.options);
  }
}

/** Re-encodes auto-oriented, in sRGB, metadata dropped; 400 when the bytes are not the declared type, 413 over EXPORT_MAX_PIXELS or `maxResponseBytes`. */
export async function exportImage(deps: ExportDeps, input: ExportInput): Promise<ExportedImage> {
  const started = performance.now();
  const declared = declaredFormat(input.declaredType);
  const options: SharpOptions = { limitInputPixels: EXPORT_MAX_PIXELS, failOn: 'error', animated: false };

  let metadata: Metadata;
  try {
    // Reads the header only: the pixel limit is checked before anything is decoded.
    metadata = await sharp(input.bytes, { ...options, limitInputPixels: false }).metadata();
  } catch (error) {
    throw new InvalidRequestError('Undecodable image', `The image bytes are not a readable ${declared.toUpperCase()} file.`, error);
  }
  const actual: string | undefined = metadata.format;
  if (actual !== declared) {
    throw new InvalidRequestError(
      'Image type mismatch',
      `The part is declared image/${declared} but its bytes are ${actual ? actual.toUpperCase() : 'not an image'}; declare the real type.`,
    );
  }
  const pixels = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0);
  if (pixels > EXPORT_MAX_PIXELS) {
    throw new ContentTooLargeError(
      'Image has too many pixels',
      `The image is ${metadata.width} × ${metadata.height} pixels; send at most ${EXPORT_MAX_PIXELS.toLocaleString('en-US')} pixels.`,
      EXPORT_MAX_PIXELS,
    );
  }

  const settings = EXPORT_PRESETS[input.format][input.preset];
  const grey = metadata.space === 'b-w' || metadata.space === 'grey16';
  let pipeline = sharp(input.bytes, options)
    .autoOrient()
    .toColourspace(grey ? 'b-w' : 'srgb');
  if (settings.format === 'jpeg' && metadata.hasAlpha) pipeline = pipeline.flatten({ background: '#ffffff' });

  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await encode(pipeline, settings).toBuffer({ resolveWithObject: true });
  } catch (error) {
    // The header was fine but the pixel data is not (truncated or corrupt).
    throw new InvalidRequestError('Undecodable image', `The image bytes are not a readable ${declared.toUpperCase()} file.`, error);
  }
  if (output.data.length > deps.maxResponseBytes) {
    throw new ContentTooLargeError(
      'Exported image too large',
      `The ${input.format} output is ${output.data.length} bytes, more than the ${deps.maxResponseBytes} a response can carry; choose jpeg or webp, a lower preset, or a smaller image.`,
      deps.maxResponseBytes,
    );
  }
  emitMetrics([
    { name: 'ExportBytes', value: output.data.length, dimensions: { Format: input.format } },
    { name: 'ExportTime', value: Math.round((performance.now() - started) * 10) / 10, dimensions: { Format: input.format } },
  ]);
  return {
    bytes: output.data,
    contentType: `image/${input.format}`,
    fileName: downloadName(input.fileName, input.format),
    width: output.info.width,
    height: output.info.height,
  };
}
