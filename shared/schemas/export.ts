/**
 * POST /api/export: the request schema, the limits and the encoder settings of each preset.
 * Kept free of sharp so the route table (read by every function) never loads the native module.
 */
import * as v from 'valibot';
import { filePart } from '#shared/schemas/multipart.ts';

export const EXPORT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export const QUALITY_PRESETS = ['high', 'medium', 'low'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type QualityPreset = (typeof QUALITY_PRESETS)[number];

/** Media types an upload may declare, by the format its bytes must decode as. */
export const INPUT_TYPES = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const;

/**
 * Largest request body. Lambda takes at most 6 MB (6,291,456 bytes) of event JSON, and API
 * Gateway base64-encodes a binary body (4/3): 4 MiB becomes 5,592,408 characters, which leaves
 * about 700 KB for headers and the request context. Bodies above this get 413 from the function;
 * above about 4.6 MB Lambda refuses the event itself and API Gateway answers without our envelope.
 */
export const EXPORT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Decompression-bomb guard: the most pixels an input may declare (sharp's limitInputPixels). A
 * 4 MiB PNG can claim 100,000 × 100,000 pixels; 40 MP (e.g. 8000 × 5000) bounds decoding at
 * about 160 MB of RGBA, well inside the function's memory.
 */
export const EXPORT_MAX_PIXELS = 40_000_000;

/**
 * `n.toLocaleString('en-US')` for a non-negative integer (40000000 → "40,000,000") without Intl:
 * the first toLocaleString of a process loads ICU's number formatting, ≈ 10 ms of every cold start
 * when it runs while the route table loads.
 */
export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Encoder settings of one format and preset, in sharp's terms; measured figures in the docs. */
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
 * The presets, chosen by measurement on a 1920×1080 screenshot-like and photo-like input
 * (`npm run bench` prints the table; README "Export presets" has the figures):
 *
 * - JPEG always uses mozjpeg (trellis quantisation, optimised progressive scans). high keeps full
 *   chroma (4:4:4) because subsampling smears coloured text in screenshots; medium is q80 4:2:0,
 *   about 23 % smaller than libjpeg-turbo at the same quality setting.
 * - WebP: effort 4 (effort 6 took 2–2.5× the time for 1–13 % fewer bytes). high adds smart chroma
 *   subsampling for crisper colour edges.
 * - PNG high is lossless with adaptive filtering at zlib level 6: level 9 took 3–4× longer on the
 *   screenshot (2.8× on the photo) and was not smaller on it. medium and low quantise to a
 *   palette (libimagequant); palette indices are written unfiltered, because filtering them
 *   measured 21 % (screenshot) to 62 % (photo) larger (the PNG specification recommends filter
 *   type None for indexed images).
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
  qualityPreset: v.pipe(v.picklist(QUALITY_PRESETS), v.description('Size/quality trade-off: high, medium or low (encoder settings in the operation description).')),
});
export type ExportRequest = v.InferOutput<typeof ExportRequest>;

/**
 * Output size (KB) and encode time (ms) per preset, measured with `npm run bench` on a 1920×1080
 * screenshot-like PNG and photo-like JPEG (sharp 0.35.5, libvips 8.18.7, a shared 2-core x86_64
 * machine; medians of 5). Times include decoding the input. Published in the docs and README;
 * re-run the benchmark and update these when a preset changes.
 */
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

/** A preset's encoder settings in words, for the docs. */
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

/** The presets as a Markdown table: settings and measured bytes and time on both inputs. */
export function presetTable(): string {
  const rows = EXPORT_FORMATS.flatMap((format) =>
    QUALITY_PRESETS.map((preset) => {
      const { screenshot, photo } = MEASURED[format][preset];
      return `| ${format} | ${preset} | ${describeSettings(EXPORT_PRESETS[format][preset])} | ${screenshot[0]} KB, ${screenshot[1]} ms | ${photo[0]} KB, ${photo[1]} ms |`;
    }),
  );
  return ['| format | preset | settings | screenshot 1920×1080 | photo 1920×1080 |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
