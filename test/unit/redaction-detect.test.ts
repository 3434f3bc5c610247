import { describe, expect, it } from 'vitest';
import { REDACT_KINDS } from '#shared/schemas/redaction.ts';
import type { RedactKind } from '#shared/schemas/redaction.ts';
import { findSensitive, mergeFindings } from '#shared/services/capture/redaction/detect.ts';
import { countryOfLanguage } from '#shared/services/capture/redaction/reading.ts';
import { CORPUS } from '../support/redaction-corpus.ts';
import { PRECISION_LINES } from '../support/redaction-precision.ts';

const found = async (text: string, kinds: readonly RedactKind[] = REDACT_KINDS) =>
  (await findSensitive(text, kinds)).map((f) => `${f.kind}:${text.slice(f.start, f.end)}`);

describe('findSensitive', () => {
  it('has a corpus of at least 40 lines, true and false positives of every kind', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    for (const kind of REDACT_KINDS) expect(CORPUS.filter((entry) => entry.kind === kind).length).toBeGreaterThanOrEqual(3);
    expect(CORPUS.filter((entry) => entry.kind === null).length).toBeGreaterThanOrEqual(15);
  });

  it.each(CORPUS.filter((entry) => entry.kind !== null).map((entry) => [entry.name, entry] as const))('finds %s, and only it', async (_name, entry) => {
    expect(await found(entry.line)).toEqual([`${entry.kind}:${entry.secret}`]);
  });

  it.each(CORPUS.filter((entry) => entry.kind === null).map((entry) => [entry.name, entry] as const))('leaves %s alone', async (_name, entry) => {
    expect(await found(entry.line)).toEqual([]);
  });

  it('finds only the kinds asked for', async () => {
    // Prepare
    const text = 'jane@example.com 203.0.113.42 4111 1111 1111 1111';

    // Act + Assess
    expect(await found(text, ['ip'])).toEqual(['ip:203.0.113.42']);
    expect(await found(text, [])).toEqual([]);
  });

  it('reads national numbers in the country it is given', async () => {
    // A French mobile number without +33 is not a valid US number.
    expect(await found('Appelez le 06 12 34 56 78', ['phone'])).toEqual([]);
    expect((await findSensitive('Appelez le 06 12 34 56 78', ['phone'], { defaultCountry: 'FR' })).length).toBe(1);
  });

  it('is not switched off by a secretlint-disable comment in the page', async () => {
    const token = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');
    expect(await found(`// secretlint-disable\n${token}`, ['secret'])).toEqual([`secret:${token}`]);
  });
});

describe('findSensitive, on real-looking lines', () => {
  const foundIn = async (line: string, lang = '') => {
    const country = countryOfLanguage(lang);
    return (await findSensitive(line, REDACT_KINDS, country ? { defaultCountry: country } : {})).map((f) => `${f.kind}:${line.slice(f.start, f.end)}`);
  };

  it.each(PRECISION_LINES.map((entry) => [entry.line, entry] as const))('reads %j as it should', async (_line, entry) => {
    expect(await foundIn(entry.line, entry.lang)).toEqual(entry.expected);
  });

  it('finds every finding of the lines, none where there is none, and misses only the known gaps', async () => {
    // Act
    let found = 0;
    let falsely = 0;
    for (const entry of PRECISION_LINES) {
      const got = await foundIn(entry.line, entry.lang);
      found += got.filter((finding) => entry.expected.includes(finding as never)).length;
      falsely += got.filter((finding) => !entry.expected.includes(finding as never)).length;
    }

    // Assess: docs/capture.md gives these figures.
    const expected = PRECISION_LINES.flatMap((entry) => entry.expected).length;
    expect({ lines: PRECISION_LINES.length, found, expected, falsely, missed: PRECISION_LINES.flatMap((entry) => entry.missed ?? []).length }).toEqual({
      lines: 115,
      found: expected,
      expected: 39,
      falsely: 0,
      missed: 4,
    });
  });
});

describe('mergeFindings', () => {
  it('joins overlapping findings under the kind of the longest', () => {
    expect(
      mergeFindings([
        { kind: 'ip', start: 20, end: 29 },
        { kind: 'secret', start: 0, end: 40 },
        { kind: 'email', start: 50, end: 60 },
      ]),
    ).toEqual([
      { kind: 'secret', start: 0, end: 40 },
      { kind: 'email', start: 50, end: 60 },
    ]);
  });
});
