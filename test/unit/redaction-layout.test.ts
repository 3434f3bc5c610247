import { describe, expect, it } from 'vitest';
import { coversPiece, findingRects, imageBoxes, placePart, unionOf } from '#shared/services/capture/redaction/cover.ts';
import type { Piece } from '#shared/services/capture/redaction/drawn-text.ts';
import { alphaOf, inkOf, NO_INK, shadowsOf } from '#shared/services/capture/redaction/ink.ts';
import { joinPieces, partsOf } from '#shared/services/capture/redaction/lines.ts';
import { countryOfLanguage } from '#shared/services/capture/redaction/reading.ts';
import { captureOptionsOf, optionsVariant } from '#shared/services/capture/options.ts';

const EVERYWHERE = { x: -1e9, y: -1e9, width: 2e9, height: 2e9 };

/** A text node's run at x on line y (20 px lines), 10 px a character. */
function piece(text: string, x: number, y: number, extra: Partial<Piece> = {}): Piece {
  return {
    text,
    reversed: false,
    box: { x, y, width: text.length * 10, height: 20 },
    clip: EVERYWHERE,
    ink: NO_INK,
    whole: false,
    field: false,
    hardBreak: false,
    document: 0,
    node: x * 1000 + y,
    block: 1,
    cell: -1,
    backendNodeId: 1,
    start: 0,
    ...extra,
  };
}

describe('joinPieces', () => {
  it('joins pieces that touch on one line without a separator, and spaced ones with a space', () => {
    const pieces = [piece('Mail: ', 0, 0), piece('split', 60, 0), piece('.user@', 110, 0), piece('example.com', 170, 0), piece('next', 300, 0)];
    expect(joinPieces(pieces).text).toBe('Mail: split.user@example.com next');
  });

  it('reads one line left to right whatever the order of its pieces in the document (flex order, row-reverse)', () => {
    const letters = [...'moc.x@j'].map((char, i) => piece(char, 60 - i * 10, 0));
    expect(joinPieces(letters).text).toBe('j@x.com');
  });

  it('reads lines apart, and pieces far apart on one line as apart', () => {
    expect(joinPieces([piece('first', 0, 0), piece('second', 0, 20), piece('column', 600, 20)]).text).toBe('first\nsecond\ncolumn');
  });

  it('reads the cells of a table row apart, even where they touch', () => {
    const row = [
      piece('10', 0, 0, { cell: 1 }),
      piece('Customer 10', 20, 0, { cell: 2 }),
      piece('+44 20 7946 1001', 130, 0, { cell: 3 }),
      piece('2024-03-02', 290, 0, { cell: 4 }),
    ];
    expect(joinPieces(row).text).toBe('10\nCustomer 10\n+44 20 7946 1001\n2024-03-02');
  });

  it('makes a word wrapped inside one text node whole again, not one wrapped at a space or over two nodes', () => {
    const node = { node: 7 };
    const wrapped = [piece('wrapped.addr', 0, 0, { ...node, start: 0 }), piece('ess@example.com', 0, 20, { ...node, start: 12 })];
    expect(joinPieces(wrapped).text).toBe('wrapped.address@example.com');
    const atSpace = [piece('Contact ', 0, 0, { ...node, start: 0 }), piece('jane@example.com', 0, 20, { ...node, start: 8 })];
    expect(joinPieces(atSpace).text).toBe('Contact\njane@example.com');
    expect(joinPieces([piece('wrapped.addr', 0, 0), piece('ess@example.com', 0, 20)]).text).toBe('wrapped.addr\ness@example.com');
  });

  it('reads a right-to-left override as drawn, and maps each character back to its place in the DOM', () => {
    // Prepare
    const pieces = [piece('moc.elpmaxe@nhoj', 0, 0, { reversed: true })];

    // Act
    const joined = joinPieces(pieces);

    // Assess
    expect(joined.text).toBe('john@example.com');
    expect(partsOf(joined, pieces, 0, 4)).toEqual([{ piece: 0, start: 12, end: 16 }]);
  });

  it('leaves out what draws nothing and reads compatibility forms as plain, mapping a finding back over them', () => {
    // Prepare: a zero-width space, a soft hyphen, a word joiner and a full-width at sign.
    const pieces = [piece('Mail zero\u200b.width＠exam\u00adple\u2060.com today', 0, 0)];

    // Act
    const joined = joinPieces(pieces);

    // Assess
    expect(joined.text).toBe('Mail zero.width@example.com today');
    const start = joined.text.indexOf('zero');
    expect(partsOf(joined, pieces, start, start + 'zero.width@example.com'.length)).toEqual([{ piece: 0, start: 5, end: 30 }]);
  });

  it("reads a form field's text as a line of its own, and a line break as the end of one", () => {
    const pieces = [
      piece('Mail', 0, 0),
      piece('jane@example.com', 50, 0, { field: true, whole: true }),
      piece('\n', 220, 0, { hardBreak: true }),
      piece('after', 230, 0),
    ];
    expect(joinPieces(pieces).text).toBe('Mail\njane@example.com\nafter');
  });
});

describe('finding rects', () => {
  it('covers a piece whole when the finding is all it draws, and asks for a measure otherwise', () => {
    const whole = piece(' jane@example.com\u200b', 0, 0);
    expect(coversPiece({ piece: 0, start: 1, end: 17 }, whole)).toBe(true);
    expect(coversPiece({ piece: 0, start: 1, end: 5 }, whole)).toBe(false);
  });

  it('places a measured part in its box by its share of the box across, and distrusts a measure outside it', () => {
    const box = { x: 100, y: 40, width: 200, height: 20 };
    expect(placePart(box, { part: { x: 60, y: 5, width: 50, height: 10 }, box: { x: 10, y: 5, width: 100, height: 10 } })).toEqual({
      x: 200,
      y: 40,
      width: 100,
      height: 20,
    });
    expect(placePart(box, { part: { x: 500, y: 5, width: 50, height: 10 }, box: { x: 10, y: 5, width: 100, height: 10 } })).toBeUndefined();
  });

  it('grows each rect by its ink and cuts it to what can show', () => {
    // Prepare: a part measured at 20–60, with a stroke's ink, in a box clipped at y 5.
    const pieces = [piece('Contact jane', 0, 0, { ink: { left: 2, right: 2, top: 2, bottom: 2 }, clip: { x: 0, y: 5, width: 1000, height: 1000 } })];

    // Act
    const rects = findingRects([{ piece: 0, start: 8, end: 12 }], pieces, () => ({ x: 80, y: 0, width: 40, height: 20 }));

    // Assess
    expect(rects).toEqual([{ x: 78, y: 5, width: 44, height: 17 }]);
  });

  it('covers the whole box of generated content, which has no text node to measure', () => {
    const pieces = [piece('Mail: gen@example.com', 0, 0, { whole: true, backendNodeId: undefined })];
    expect(findingRects([{ piece: 0, start: 6, end: 21 }], pieces, () => undefined)).toEqual([{ x: 0, y: 0, width: 210, height: 20 }]);
  });
});

describe('imageBoxes', () => {
  it('joins rects of one finding on one line, keeps lines apart, and scales to image px rounded outwards', () => {
    // Prepare: a finding over two elements on line 1, wrapping onto line 2.
    const rects = [
      { x: 10.5, y: 100, width: 40, height: 20 },
      { x: 50.5, y: 100, width: 30.2, height: 20 },
      { x: 10, y: 120, width: 25, height: 20 },
    ];

    // Act
    const out = imageBoxes([{ kind: 'email', rects }], { x: 0, y: 90, width: 960, height: 500 }, { width: 1920, height: 1000 });

    // Assess
    expect(out).toEqual([
      { kind: 'email', x: 21, y: 20, width: 141, height: 40 },
      { kind: 'email', x: 20, y: 60, width: 50, height: 40 },
    ]);
  });

  it('cuts boxes to the picture and leaves out those outside it', () => {
    const findings = [
      { kind: 'ip' as const, rects: [{ x: 10, y: 5, width: 40, height: 20 }] },
      { kind: 'card' as const, rects: [{ x: 10, y: 2000, width: 40, height: 20 }] },
    ];
    expect(imageBoxes(findings, { x: 0, y: 10, width: 100, height: 100 }, { width: 100, height: 100 })).toEqual([
      { kind: 'ip', x: 10, y: 0, width: 40, height: 15 },
    ]);
  });

  it('lists each box of two reads once', () => {
    const a = { kind: 'email' as const, x: 1, y: 2, width: 3, height: 4 };
    const b = { ...a, y: 30 };
    expect(unionOf([a], [a, b])).toEqual([a, b]);
  });
});

describe('ink', () => {
  const style =
    (values: Record<string, string>) =>
    (name: string): string =>
      values[name] ??
      {
        'font-size': '20px',
        'font-style': 'normal',
        '-webkit-text-stroke-color': 'rgb(0, 0, 0)',
        '-webkit-text-stroke-width': '0px',
        'text-shadow': 'none',
        'text-emphasis-style': 'none',
        'text-decoration-line': 'none',
      }[name] ??
      '';

  it('reaches a pixel past plain text, and further for italics, stroke, shadows, emphasis marks and underlines', () => {
    expect(inkOf(style({}))).toEqual({ left: 1, right: 1, top: 1, bottom: 1 });
    expect(inkOf(style({ 'font-style': 'italic' }))).toEqual({ left: 5, right: 5, top: 1, bottom: 1 });
    expect(inkOf(style({ '-webkit-text-stroke-width': '3px' }))).toEqual({ left: 3, right: 3, top: 3, bottom: 3 });
    expect(inkOf(style({ 'text-shadow': 'rgb(255, 0, 0) 6px -2px 3px' }))).toEqual({ left: 1, right: 10, top: 6, bottom: 2 });
    expect(inkOf(style({ 'text-emphasis-style': 'filled circle', 'text-emphasis-position': 'over right' }))).toEqual({ left: 1, right: 1, top: 13, bottom: 1 });
    expect(inkOf(style({ 'text-decoration-line': 'underline', 'text-underline-offset': '6px', 'text-decoration-thickness': '3px' }))).toEqual({
      left: 1,
      right: 1,
      top: 1,
      bottom: 11,
    });
  });

  it('reads the alpha of computed colours and of each shadow', () => {
    expect([alphaOf('rgb(1, 2, 3)'), alphaOf('rgba(0, 0, 0, 0)'), alphaOf('rgba(0, 0, 0, 0.5)'), alphaOf('oklch(0.5 0.1 20 / 0)')]).toEqual([1, 0, 0.5, 0]);
    expect(shadowsOf('rgba(0, 0, 0, 0) 1px 2px 3px, rgb(0, 0, 0) -4px 0px 0px')).toEqual([
      { x: 1, y: 2, blur: 3, shows: false },
      { x: -4, y: 0, blur: 0, shows: true },
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
