/** POST /api/export's schema, limits and presets, free of sharp so the route table never loads it. */
import * as v from 'valibot';
import { filePart } from '#shared/schemas/multipart.ts';

export const EXPORT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export const QUALITY_PRESETS = ['high', 'medium', 'low'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type QualityPreset = (typeof QUALITY_PRESETS)[number];

/** By the format the bytes must decode as. */
export const INPUT_TYPES = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const;

/**
 * Lambda's 6 MB event cap, less base64's 4/3 and room for headers. Well above it Lambda refuses the
 * event itself and API Gateway answers without our envelope.
 */
export const EXPORT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Decompression-bomb guard (sharp's limitInputPixels): bounds decoded RGBA well inside the function's memory. */
export const EXPORT_MAX_PIXELS = 40_000_000;

/** `n.toLocaleString('en-US')` without Intl, whose first use loads ICU number formatting at cold start. */
export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** In sharp's terms. */
export type EncoderSettings =
  | { format: 'jpeg'; options: { quality: number; mozjpeg: true; chromaSubsampling: '4:4:4' | '4:2:0' } }
  | { format: 'webp'; options: { quality: number; effort: number; smartSubsample?: boolean } }
  | {
      format: 'png';
      options: {
        compressionLevel: number;
        adaptiveFiltering: boolean;
        palette?: true;
        quality?: number;
        colours?: number;
        effort?: number;
        dither?: number;
      };
    };

/**
 * Chosen by measurement (docs/capture.md, "Presets"). JPEG high keeps 4:4:4 chroma, as subsampling
 * smears coloured text; palette PNGs are unfiltered, as the PNG specification recommends.
 */
export const EXPORT_PRESETS: Record<ExportFormat, Record<QualityPreset, EncoderSettings>> = {
  jpeg: {
    high: { format: 'jpeg', options: { quality: 90, mozjpeg: true, chromaSubsampling: '4:4:4' } },
    medium: { format: 'jpeg', options: { quality: 80, mozjpeg: true, chromaSubsampling: '4:2:0' } },
    low: { format: 'jpeg', options: { quality: 60, mozjpeg: true, chromaSubsampling: '4:2:0' } },
  },
  webp: {
    high: { format: 'webp', options: { quality: 90, effort: 4, smartSubsample: true } },
    medium: { format: 'webp', options: { quality: 80, effort: 4 } },
    low: { format: 'webp', options: { quality: 60, effort: 4 } },
  },
  png: {
    high: { format: 'png', options: { compressionLevel: 6, adaptiveFiltering: true } },
    medium: { format: 'png', options: { palette: true, quality: 90, effort: 4, dither: 1, compressionLevel: 9, adaptiveFiltering: false } },
    low: { format: 'png', options: { palette: true, quality: 60, colours: 64, effort: 4, dither: 0, compressionLevel: 9, adaptiveFiltering: false } },
  },
};

/** The multipart fields of POST /api/export. */
export const ExportRequest = v.object({
  image: filePart(
    'image must be one file part with Content-Type image/png, image/jpeg or image/webp (e.g. curl -F image=@shot.png)',
    `The image to recompress: one file part declared as image/png, image/jpeg or image/webp; the bytes must decode as the declared type. At most ${groupThousands(EXPORT_MAX_PIXELS)} pixels.`,
  ),
  format: v.pipe(v.picklist(EXPORT_FORMATS), v.description('Output format: png, jpeg or webp.')),
  qualityPreset: v.pipe(
    v.picklist(QUALITY_PRESETS),
    v.description('Size/quality trade-off: high, medium or low (encoder settings in the operation description).'),
  ),
});
export type ExportRequest = v.InferOutput<typeof ExportRequest>;

/** Size (KB) and time (ms) per preset from `npm run bench -- export`; re-run it when a preset changes. */
export const MEASURED: Record<ExportFormat, Record<QualityPreset, { screenshot: [kb: number, ms: number]; photo: [kb: number, ms: number] }>> = {
  png: {
    high: { screenshot: [460, 110], photo: [2186, 361] },
    medium: { screenshot: [147, 238], photo: [920, 1606] },
    low: { screenshot: [116, 115], photo: [673, 880] },
  },
  jpeg: {
    high: { screenshot: [318, 433], photo: [390, 368] },
    medium: { screenshot: [212, 266], photo: [180, 193] },
    low: { screenshot: [147, 194], photo: [102, 131] },
  },
  webp: {
    high: { screenshot: [213, 422], photo: [347, 445] },
    medium: { screenshot: [167, 182], photo: [158, 225] },
    low: { screenshot: [137, 179], photo: [82, 212] },
  },
};

export function describeSettings(settings: EncoderSettings): string {
  switch (settings.format) {
    case 'jpeg':
      return `mozjpeg, quality ${settings.options.quality}, chroma ${settings.options.chromaSubsampling}`;
    case 'webp':
      return `lossy, quality ${settings.options.quality}, effort ${settings.options.effort}${settings.options.smartSubsample ? ', smart chroma subsampling' : ''}`;
    case 'png': {
      const { palette, quality, colours, dither, compressionLevel, adaptiveFiltering } = settings.options;
      const filtering = adaptiveFiltering ? 'adaptive filtering' : 'unfiltered';
      if (!palette) return `lossless, zlib level ${compressionLevel}, ${filtering}`;
      return `palette of at most ${colours ?? 256} colours (libimagequant quality ${quality}), dither ${dither}, zlib level ${compressionLevel}, ${filtering}`;
    }
  }
}

export function presetTable(): string {
  const rows = EXPORT_FORMATS.flatMap((format) =>
    QUALITY_PRESETS.map((preset) => {
      const { screenshot, photo } = MEASURED[format][preset];
      return `| ${format} | ${preset} | ${describeSettings(EXPORT_PRESETS[format][preset])} | ${screenshot[0]} KB, ${screenshot[1]} ms | ${photo[0]} KB, ${photo[1]} ms |`;
    }),
  );
  return ['| format | preset | settings | screenshot 1920×1080 | photo 1920×1080 |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
