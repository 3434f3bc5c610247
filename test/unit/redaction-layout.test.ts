import { describe, expect, it } from 'vitest';
import { imageBoxes } from '#shared/services/capture/redaction/boxes.ts';
import { joinTexts, partsOf } from '#shared/services/capture/redaction/ranges.ts';
import { countryOfLanguage } from '#shared/services/capture/redaction/redact-page.ts';
import { captureOptionsOf, optionsVariant } from '#shared/services/capture/options.ts';

describe('joinTexts and partsOf', () => {
  const page = { texts: ['Mail: ', 'split', '.user@example.com', 'next block'], separators: ['\n', '', '', '\n'] };

  it('joins an inline run without separators and blocks with a line break', () => {
    expect(joinTexts(page)).toEqual({ text: 'Mail: split.user@example.com\nnext block', starts: [0, 6, 11, 29] });
  });

  it('maps a finding over three texts back to the part of each', () => {
    // Prepare
    const joined = joinTexts(page);

    // Act
    const parts = partsOf({ kind: 'email', start: 6, end: 28 }, joined, page.texts);

    // Assess
    expect(parts).toEqual({
      parts: [
        { target: 1, start: 0, end: 5 },
        { target: 2, start: 0, end: 17 },
      ],
    });
  });

  it('leaves a text the finding only touches at its edge out', () => {
    const joined = joinTexts(page);
    expect(partsOf({ kind: 'email', start: 0, end: 6 }, joined, page.texts)).toEqual({ parts: [{ target: 0, start: 0, end: 6 }] });
  });
});

describe('imageBoxes', () => {
  it('joins rects of one finding on one line, keeps lines apart, and scales to image px rounded outwards', () => {
    // Prepare: a finding over two elements on line 1, wrapping onto line 2.
    const boxes = [
      { finding: 0, x: 10.5, y: 100, width: 40, height: 20 },
      { finding: 0, x: 50.5, y: 100, width: 30.2, height: 20 },
      { finding: 0, x: 10, y: 120, width: 25, height: 20 },
    ];

    // Act
    const out = imageBoxes(boxes, ['email'], { x: 0, y: 90, width: 1920, height: 1000 }, 2);

    // Assess
    expect(out).toEqual([
      { kind: 'email', x: 21, y: 20, width: 141, height: 40 },
      { kind: 'email', x: 20, y: 60, width: 50, height: 40 },
    ]);
  });

  it('cuts boxes to the picture and leaves out those outside it', () => {
    const boxes = [
      { finding: 0, x: 10, y: 5, width: 40, height: 20 },
      { finding: 1, x: 10, y: 2000, width: 40, height: 20 },
      { finding: 2, x: 10, y: 50, width: 0, height: 20 },
    ];
    expect(imageBoxes(boxes, ['ip', 'card', 'phone'], { x: 0, y: 10, width: 100, height: 100 }, 1)).toEqual([
      { kind: 'ip', x: 10, y: 0, width: 40, height: 15 },
    ]);
  });
});

describe('countryOfLanguage', () => {
  it.each([
    ['en-GB', 'GB'],
    ['fr_FR', 'FR'],
    ['zh-Hant-TW', 'TW'],
    ['en', undefined],
    ['', undefined],
    ['en-ZZ', undefined],
  ])('reads %j as %s', (lang, country) => {
    expect(countryOfLanguage(lang)).toBe(country);
  });
});

describe('redact in the cache key', () => {
  it('gives a capture with redact its own variant, whatever the order and repeats of its kinds', () => {
    const plain = optionsVariant(captureOptionsOf({}), 'desktop');
    const some = optionsVariant(captureOptionsOf({ redact: ['email', 'ip'] }), 'desktop');
    expect(plain).toBeUndefined();
    expect(some).toBeDefined();
    expect(optionsVariant(captureOptionsOf({ redact: ['ip', 'email', 'ip'] }), 'desktop')).toBe(some);
    expect(optionsVariant(captureOptionsOf({ redact: ['ip'] }), 'desktop')).not.toBe(some);
    expect(optionsVariant(captureOptionsOf({ redact: [] }), 'desktop')).toBeUndefined();
  });
});
