import { describe, expect, it } from 'vitest';
import { REDACT_KINDS } from '#shared/schemas/redaction.ts';
import type { RedactKind } from '#shared/schemas/redaction.ts';
import { findSensitive, mergeFindings } from '#shared/services/capture/redaction/detect.ts';
import { CORPUS } from '../support/redaction-corpus.ts';

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
