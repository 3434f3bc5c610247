/** The editor's "Redact sensitive data" action in Node: when it runs, the boxes as annotations, the review and the summary line. */
import { describe, expect, it } from 'vitest';
import { capturedSource, framingOf } from '#editor/src/model/capture-request.ts';
import { editsFrom, NO_EDITS } from '#editor/src/model/edits.ts';
import {
  exposedFindings,
  kindsFrom,
  keepsSource,
  NEEDS_CAPTURE,
  REDACT_KINDS,
  redactAvailability,
  redactionAnnotations,
  redactionSummary,
  restyleRedactions,
  withRedactions,
} from '#editor/src/model/redaction.ts';
import { REDACT_KINDS as API_KINDS } from '#shared/schemas/redaction.ts';

const ids = () => {
  let n = 0;
  return () => `r${(n += 1)}`;
};

describe('redactAvailability', () => {
  it('is enabled for a captured page with its address', () => {
    expect(redactAvailability({ kind: 'capture', address: 'https://example.com/' })).toEqual({ enabled: true, reason: '' });
  });

  it('is disabled for an uploaded image and a tweet, saying it reads the page, not the pixels', () => {
    for (const source of [{ kind: 'image' }, { kind: 'tweet' }, { kind: 'capture' }]) {
      expect(redactAvailability(source)).toEqual({ enabled: false, reason: NEEDS_CAPTURE });
    }
    expect(NEEDS_CAPTURE).toBe("Finding sensitive text needs a captured page: the editor reads the page's text, not the picture's pixels.");
  });

  it('is disabled without a source', () => {
    expect(redactAvailability(undefined).enabled).toBe(false);
  });
});

describe('the kinds', () => {
  it('are the API’s', () => {
    expect([...REDACT_KINDS]).toEqual([...API_KINDS]);
  });

  it('default to all, and read back from storage in the API’s order without unknown ones', () => {
    expect(kindsFrom(null)).toEqual([...REDACT_KINDS]);
    expect(kindsFrom('ip,email,ssn')).toEqual(['email', 'ip']);
    expect(kindsFrom('')).toEqual([]);
  });
});

describe('redactionAnnotations', () => {
  const boxes = [
    { kind: 'email' as const, x: 100, y: 40, width: 180, height: 20 },
    { kind: 'secret' as const, x: 20, y: 200, width: 300, height: 18 },
    { kind: 'card' as const, x: 5, y: 5, width: 0, height: 10 },
  ];

  it('makes one solid box per answered box, in layout pixels, leaving out a box of no area', () => {
    expect(redactionAnnotations(boxes, 1, ids())).toEqual([
      { id: 'r1', kind: 'solid', x1: 100, y1: 40, x2: 280, y2: 60, color: '#000000', width: 4 },
      { id: 'r2', kind: 'solid', x1: 20, y1: 200, x2: 320, y2: 218, color: '#000000', width: 4 },
    ]);
  });

  it('divides a phone capture’s image pixels by its density', () => {
    const [first] = redactionAnnotations(boxes, 2, ids());
    expect(first).toMatchObject({ x1: 50, y1: 20, x2: 140, y2: 30 });
  });

  it('keeps as edits that read back, added as one change after what was there', () => {
    const existing = { id: 'a1', kind: 'rect' as const, x1: 0, y1: 0, x2: 10, y2: 10, color: '#ff3b30', width: 4 };
    const edits = withRedactions({ crop: null, annotations: [existing] }, redactionAnnotations(boxes, 1, ids()));
    expect(edits.annotations.map((annotation) => annotation.kind)).toEqual(['rect', 'solid', 'solid']);
    expect(editsFrom(JSON.parse(JSON.stringify(edits)))).toEqual(edits);
  });
});

describe('restyleRedactions', () => {
  const edits = withRedactions(
    NO_EDITS,
    redactionAnnotations(
      [1, 2, 3].map((n) => ({ kind: 'email' as const, x: n * 10, y: 0, width: 5, height: 5 })),
      1,
      ids(),
    ),
  );

  it('switches one box, or every box, and nothing else', () => {
    const one = restyleRedactions(edits, 'pixelate', new Set(['r2']));
    expect(one.annotations.map((annotation) => annotation.kind)).toEqual(['solid', 'pixelate', 'solid']);
    const all = restyleRedactions(one, 'blur');
    expect(all.annotations.map((annotation) => annotation.kind)).toEqual(['blur', 'blur', 'blur']);
  });

  it('returns the same edits when nothing changes, so no undo step is recorded', () => {
    expect(restyleRedactions(edits, 'solid')).toBe(edits);
    const arrow = { crop: null, annotations: [{ id: 'a', kind: 'arrow' as const, x1: 0, y1: 0, x2: 1, y2: 1, color: '#000000', width: 4 }] };
    expect(restyleRedactions(arrow, 'blur')).toBe(arrow);
  });
});

describe('redactionSummary', () => {
  it('counts the boxes by kind in words, in the API’s order', () => {
    const boxes = [{ kind: 'secret' as const }, { kind: 'email' as const }, { kind: 'email' as const }, { kind: 'email' as const }];
    expect(redactionSummary(boxes)).toBe('Found 3 e-mail addresses, 1 API key — review the boxes.');
    expect(redactionSummary([{ kind: 'phone' }, { kind: 'ip' }, { kind: 'ip' }, { kind: 'card' }])).toBe(
      'Found 1 phone number, 1 card number, 2 IP addresses — review the boxes.',
    );
  });

  it('says when there is nothing', () => {
    expect(redactionSummary([])).toBe('Found nothing to redact.');
  });
});

describe('which picture becomes the source', () => {
  it('keeps the current one when the redacted capture has the same size, and not otherwise', () => {
    expect(keepsSource({ width: 1280, height: 2400 }, { width: 1280, height: 2400 })).toBe(true);
    expect(keepsSource({ width: 1280, height: 2400 }, { width: 1280, height: 2416 })).toBe(false);
  });
});

describe('framingOf', () => {
  it('reads back the page and framing capturedSource kept, for a capture reopened from the Recent list', () => {
    const request = { deviceType: 'mobile' as const, colorScheme: 'dark' as const, viewport: { width: 390, height: 844 } };
    const kept = capturedSource(request, 'https://app.example/billing');
    expect(framingOf(kept)).toEqual({ url: 'https://app.example/billing', ...request });
    expect(framingOf(capturedSource({ deviceType: 'desktop', colorScheme: 'light' }, 'https://example.com/'))).toEqual({
      url: 'https://example.com/',
      deviceType: 'desktop',
      colorScheme: 'light',
    });
  });
});

describe('exposedFindings', () => {
  const source = { width: 800, height: 600 };
  const card = { kind: 'card' as const, x: 200, y: 100, width: 300, height: 40 };
  const key = { kind: 'secret' as const, x: 200, y: 800, width: 400, height: 40 };

  it('is every finding on the picture of a phone capture, in layout pixels, when nothing covers them', () => {
    expect(exposedFindings([card, key], 2, NO_EDITS, source)).toEqual([card, key]);
  });

  it('leaves out a finding under a redaction of any style and one the crop cuts away', () => {
    // Prepare: the card under a pixelate box (layout pixels: half the image's), the key below a crop of the top half
    const edits = {
      crop: { x: 0, y: 0, width: 800, height: 300 },
      annotations: [{ id: 'p', kind: 'pixelate' as const, x1: 99.5, y1: 49.5, x2: 251, y2: 71, color: '#000000', width: 4 }],
    };

    // Act + Assess
    expect(exposedFindings([card, key], 2, edits, source)).toEqual([]);
    expect(exposedFindings([card, key], 2, { ...edits, crop: null }, source)).toEqual([key]);
  });

  it('counts a finding a box covers only in part, or a box of another kind covers, as shown', () => {
    const rect = { id: 'r', kind: 'rect' as const, x1: 0, y1: 0, x2: 800, y2: 600, color: '#ff0000', width: 4 };
    const half = { id: 'b', kind: 'blur' as const, x1: 100, y1: 50, x2: 180, y2: 70, color: '#000000', width: 4 };
    expect(exposedFindings([card], 2, { crop: null, annotations: [rect, half] }, source)).toEqual([card]);
  });
});
