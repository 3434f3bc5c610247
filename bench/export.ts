/** Export presets through the service, the handler's overhead over raw sharp, and mozjpeg against libjpeg-turbo. */
import '../test/support/env.ts';
import sharp from 'sharp';
import { EXPORT_FORMATS, EXPORT_PRESETS, QUALITY_PRESETS } from '#shared/schemas/export.ts';
import type { EncoderSettings, ExportFormat } from '#shared/schemas/export.ts';
import { LAMBDA_MAX_BINARY_BYTES } from '#shared/http/reply.ts';
import { exportImage } from '#shared/services/export.ts';
import { apiEvent, lambdaContext } from '../test/support/event.ts';
import { photoLike, screenshotLike } from '../test/support/images.ts';
import { interleaved, kb, ms } from './lib/measure.ts';
import type { BenchTable } from './support/report.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function rawSharp(input: Buffer, settings: EncoderSettings): Promise<Buffer> {
  // The pipeline of shared/services/export.ts, without the route around it.
  const pipeline = sharp(input, { limitInputPixels: 40_000_000, failOn: 'error', animated: false }).autoOrient().toColourspace('srgb');
  switch (settings.format) {
    case 'jpeg':
      return pipeline.jpeg(settings.options).toBuffer();
    case 'webp':
      return pipeline.webp(settings.options).toBuffer();
    case 'png':
      return pipeline.png(settings.options).toBuffer();
  }
}

async function multipartEvent(input: Buffer, type: string, format: ExportFormat, qualityPreset: string) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(input)], { type }), `input.${type.split('/')[1]}`);
  form.append('format', format);
  form.append('qualityPreset', qualityPreset);
  const request = new Request('http://bench/api/export', { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer()).toString('base64');
  return {
    ...apiEvent({ method: 'POST', path: '/api/export', headers: { 'content-type': request.headers.get('content-type')! } }),
    body,
    isBase64Encoded: true,
  };
}

export async function bench(): Promise<BenchTable[]> {
  const inputs = [
    { name: 'screenshot', bytes: await screenshotLike(), type: 'image/png' },
    { name: 'photo', bytes: await photoLike(), type: 'image/jpeg' },
  ];
  const inputNote = `Inputs: 1920×1080 screenshot-like PNG (${kb(inputs[0]!.bytes.length)}), photo-like JPEG q92 (${kb(inputs[1]!.bytes.length)}); median of ${ROUNDS} runs.`;

  const rows: (string | number)[][] = [];
  for (const format of EXPORT_FORMATS) {
    for (const preset of QUALITY_PRESETS) {
      const cells: (string | number)[] = [format, preset];
      for (const input of inputs) {
        let size = 0;
        const { run: time } = await interleaved(
          {
            run: async () => {
              size = (
                await exportImage(
                  { maxResponseBytes: LAMBDA_MAX_BINARY_BYTES },
                  { bytes: input.bytes, declaredType: input.type, fileName: 'x', format, preset },
                )
              ).bytes.length;
            },
          },
          ROUNDS,
        );
        cells.push(`${kb(size)}, ${ms(time)}`);
      }
      rows.push(cells);
    }
  }
  const presets: BenchTable = {
    title: 'Export presets: bytes and time through the service',
    columns: ['format', 'preset', 'screenshot (bytes, time)', 'photo (bytes, time)'],
    rows,
    notes: [inputNote],
  };

  const { handler } = await import('#functions/export/post-export.ts');
  const overhead: (string | number)[][] = [];
  for (const input of inputs) {
    for (const [format, preset] of [
      ['jpeg', 'medium'],
      ['webp', 'medium'],
      ['png', 'high'],
    ] as const) {
      const event = await multipartEvent(input.bytes, input.type, format, preset);
      const settings = EXPORT_PRESETS[format][preset];
      const result = await interleaved(
        {
          handler: async () => {
            const response = await handler(structuredClone(event), lambdaContext());
            if (response.statusCode !== 200) throw new Error(`handler answered ${response.statusCode}: ${response.body}`);
          },
          sharp: () => rawSharp(input.bytes, settings),
        },
        ROUNDS,
      );
      const ratio = result.handler / result.sharp;
      overhead.push([input.name, `${format} ${preset}`, ms(result.handler), ms(result.sharp), `${ratio.toFixed(2)}×`, ratio <= 1.1 ? 'met' : 'MISSED']);
    }
  }
  const handlerTable: BenchTable = {
    title: 'Export handler (multipart parse, checks, base64) against raw sharp, same options',
    columns: ['input → output', 'handler', 'raw sharp', 'ratio', 'goal', 'result'],
    rows: overhead.map((row) => [`${row[0]} → ${row[1]}`, ...row.slice(2, 5), '≤ 1.10×', row[5]!]),
  };

  const medium = EXPORT_PRESETS.jpeg.medium;
  if (medium.format !== 'jpeg') throw new Error('the jpeg medium preset must be a JPEG encoder');
  const jpegRows: (string | number)[][] = [];
  for (const input of inputs) {
    const moz = await rawSharp(input.bytes, medium);
    const turbo = await sharp(input.bytes)
      .autoOrient()
      .toColourspace('srgb')
      .jpeg({ quality: medium.options.quality, chromaSubsampling: medium.options.chromaSubsampling })
      .toBuffer();
    const saving = 1 - moz.length / turbo.length;
    jpegRows.push([
      input.name,
      `q${medium.options.quality}`,
      kb(moz.length),
      kb(turbo.length),
      `${(saving * 100).toFixed(1)} %`,
      '≥ 20 %',
      saving >= 0.2 ? 'met' : 'MISSED',
    ]);
  }
  const jpegTable: BenchTable = {
    title: 'JPEG medium (mozjpeg) against libjpeg-turbo at the same quality',
    columns: ['input', 'quality', 'mozjpeg (medium)', 'libjpeg-turbo', 'smaller by', 'goal', 'result'],
    rows: jpegRows,
  };
  return [presets, handlerTable, jpegTable];
}
