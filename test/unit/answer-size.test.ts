/**
 * fitResponse: an oversized capture is shrunk to a palette PNG within its budget, or abandoned
 * with the envelope, and nothing of the shrink runs on after the answer.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HttpError } from '#shared/errors.ts';
import { MAX_PNG_BYTES, fitResponse } from '#shared/services/capture/answer-size.ts';

/** Processes whose parent is this one (the quantiser's child, while it lives). */
function children(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Random pixels: nothing a palette can compress, and minutes of libimagequant at full size. */
async function noise(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
}

async function refusal(work: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  const { status, code, message, hint } = error as HttpError;
  return { status, code, message, hint };
}

const OUT_OF_TIME = {
  status: 500,
  code: 'upstream_failed',
  message: 'Upstream request failed',
  hint: `The capture is larger than a response can carry (${MAX_PNG_BYTES} bytes of PNG) and could not be made a palette image in the time left; capture without fullPage, at a lower scale, or one element with selector.`,
};

describe('fitResponse', () => {
  it('returns a PNG within the limit unchanged', async () => {
    // Prepare
    const png = new Uint8Array(
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#08f' } })
        .png()
        .toBuffer(),
    );

    // Act + Assess
    expect(await fitResponse(png, { budgetMs: 0 })).toBe(png);
  });

  it('recompresses a PNG over the limit to a palette PNG of the same size that fits', async () => {
    // Prepare: a busy page: each pixel one of 16 colours, plus grain a palette does not keep
    const width = 1920;
    const height = 1600;
    const pixels = Buffer.alloc(width * height * 3);
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) >>> 16;
    for (let i = 0; i < pixels.length; i += 3) {
      const base = (next() & 15) * 16;
      pixels[i] = base + (next() & 7);
      pixels[i + 1] = 255 - base - (next() & 7);
      pixels[i + 2] = (base * 3 + (next() & 7)) & 0xff;
    }
    const png = new Uint8Array(
      await sharp(pixels, { raw: { width, height, channels: 3 } })
        .png({ compressionLevel: 1 })
        .toBuffer(),
    );
    expect(png.byteLength).toBeGreaterThan(MAX_PNG_BYTES);

    // Act
    const fitted = await fitResponse(png, { budgetMs: 60_000 });

    // Assess
    expect(fitted.byteLength).toBeLessThanOrEqual(MAX_PNG_BYTES);
    expect(await sharp(fitted).metadata()).toMatchObject({ format: 'png', width, height, isPalette: true });
    expect(children()).toEqual([]);
  });

  it('answers 500 upstream_failed when no palette fits, after trying both', async () => {
    // Prepare: 16 colours at random: a palette keeps them all, 4 bits a pixel that no zlib shrinks
    const width = 1920;
    const height = 5200;
    const pixels = randomBytes(width * height).map((byte) => (byte & 15) * 17);
    const png = new Uint8Array(
      await sharp(pixels, { raw: { width, height, channels: 1 } })
        .toColourspace('srgb')
        .png({ compressionLevel: 1 })
        .toBuffer(),
    );

    // Act
    const answer = await refusal(fitResponse(png, { budgetMs: 120_000 }));

    // Assess
    expect(answer).toEqual({
      ...OUT_OF_TIME,
      hint: `The capture is larger than a response can carry (${MAX_PNG_BYTES} bytes of PNG, even as a palette image); capture without fullPage, at a lower scale, or one element with selector.`,
    });
    expect(children()).toEqual([]);
  });

  it('answers 500 upstream_failed when its budget ends first, with the shrink already stopped', async () => {
    // Prepare: noise whose shrink takes seconds, against a budget of a fraction of that
    const png = await noise(1920, 4096);

    // Act
    const answer = await refusal(fitResponse(png, { budgetMs: 300 }));

    // Assess: the envelope, and no quantiser left, in a child or on this process's threads
    expect(answer).toEqual(OUT_OF_TIME);
    expect(children()).toEqual([]);
    expect(sharp.counters()).toEqual({ queue: 0, process: 0 });
  });

  it('answers 500 upstream_failed at once when no time is left, starting nothing', async () => {
    // Prepare
    const png = await noise(1920, 1024);
    expect(png.byteLength).toBeGreaterThan(MAX_PNG_BYTES);

    // Act
    const answer = fitResponse(png, { budgetMs: 0 });

    // Assess
    expect(children()).toEqual([]);
    expect(await refusal(answer)).toEqual(OUT_OF_TIME);
  });

  it('stops the shrink when the invocation aborts', async () => {
    // Prepare
    const png = await noise(1920, 4096);
    const invocation = new AbortController();

    // Act
    const answer = refusal(fitResponse(png, { budgetMs: 120_000, signal: invocation.signal }));
    await expect.poll(() => children().length).toBe(1);
    invocation.abort();

    // Assess
    expect(await answer).toEqual(OUT_OF_TIME);
    expect(children()).toEqual([]);
  });
});
