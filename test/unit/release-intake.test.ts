import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, githubSignatureMatches, signingOf, verifyStandardWebhook } from '#shared/identity/webhooks.ts';
import { PlainText } from '#shared/schemas/common.ts';
import { readEvent } from '#shared/services/intake/events.ts';
import { BENEFIT_MAX, DESCRIPTION_MAX, readNotes } from '#shared/services/intake/notes.ts';

const body = Buffer.from('Hello, World!');

describe('githubSignatureMatches', () => {
  // GitHub's own example (docs: "Validating webhook deliveries", "Testing the webhook payload validation").
  const SECRET = "It's a Secret to Everybody";
  const SIGNED = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

  it("accepts GitHub's published example", () => {
    expect(githubSignatureMatches(SECRET, body, SIGNED)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another secret', `sha256=${createHmac('sha256', 'another').update(body).digest('hex')}`],
    ['the digest without its prefix', SIGNED.slice(7)],
    ['the digest in upper case', `sha256=${SIGNED.slice(7).toUpperCase()}`],
    ['one more character', `${SIGNED}0`],
  ])('refuses %s', (_case, header) => {
    expect(githubSignatureMatches(SECRET, body, header)).toBe(false);
  });

  it('refuses the signature of the same text with one byte changed', () => {
    expect(githubSignatureMatches(SECRET, Buffer.from('Hello, World?'), SIGNED)).toBe(false);
  });
});

describe('verifyStandardWebhook', () => {
  const secret = generateWebhookSecret();
  const sign = (key: string, id: string, timestamp: number, text: Buffer) =>
    `v1,${createHmac('sha256', Buffer.from(key.slice(6), 'base64'))
      .update(`${id}.${timestamp}.`)
      .update(text)
      .digest('base64')}`;
  const now = () => Math.floor(Date.now() / 1000);
  const headers = (signature: string, timestamp = now(), id = 'msg_1') => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  });

  it('accepts a signature made with node:crypto over id, timestamp and body', () => {
    const timestamp = now();
    expect(verifyStandardWebhook(secret, body, headers(sign(secret, 'msg_1', timestamp, body), timestamp))).toEqual({ valid: true });
  });

  it('accepts one valid signature among several, as during a key rotation', () => {
    const timestamp = now();
    const old = sign(generateWebhookSecret(), 'msg_1', timestamp, body);
    expect(verifyStandardWebhook(secret, body, headers(`${old} ${sign(secret, 'msg_1', timestamp, body)}`, timestamp))).toEqual({ valid: true });
  });

  it.each([
    ['a timestamp 6 minutes old', -360, true],
    ['a timestamp 6 minutes ahead', 360, true],
  ])('refuses %s as stale', (_case, offset, stale) => {
    const timestamp = now() + offset;
    expect(verifyStandardWebhook(secret, body, headers(sign(secret, 'msg_1', timestamp, body), timestamp))).toMatchObject({ valid: false, stale });
  });

  it.each([
    ['another message id', (timestamp: number) => headers(sign(secret, 'msg_2', timestamp, body), timestamp)],
    ['another secret', (timestamp: number) => headers(sign(generateWebhookSecret(), 'msg_1', timestamp, body), timestamp)],
    ['no signature', (timestamp: number) => headers('', timestamp)],
  ])('refuses %s, not as stale', (_case, make) => {
    expect(verifyStandardWebhook(secret, body, make(now()))).toMatchObject({ valid: false, stale: false });
  });

  it('refuses, rather than throws, when the secret is not a Standard Webhooks secret', () => {
    expect(verifyStandardWebhook('not base64 !', body, headers('v1,x'))).toEqual({
      valid: false,
      stale: false,
      reason: 'the webhookSecret is not a Standard Webhooks secret (whsec_ and base64)',
    });
  });
});

describe('signingOf', () => {
  it.each([
    ['github', 'github'],
    ['GitHub', 'github'],
    ['generic', 'standard'],
    ['linear', 'standard'],
  ])('signs the deliveries of provider %s as %s', (provider, signing) => {
    expect(signingOf(provider)).toBe(signing);
  });
});

describe('readNotes', () => {
  it('keeps the text of Markdown and HTML, drops the markup, and writes a tag-like < so the text stays plain', () => {
    // Act
    const notes = readNotes('# Title\n\nFirst **bold** [link](https://a.test/x) &amp; `Array<string>` <b>b</b>\n\n<!-- hidden -->\n\n1. one\n2. two');

    // Assess
    expect(notes).toEqual({
      description: 'Title\n\nFirst bold link & Array‹string> b\n\n- one\n- two',
      benefitStatement: 'First bold link & Array‹string> b',
      urls: ['https://a.test/x'],
    });
  });

  it('takes the first sentence of a first paragraph too long for a benefit statement, and cuts a sentence too long at a word', () => {
    // Prepare
    const sentence = `${'word '.repeat(60).trim()}.`;
    const long = 'x '.repeat(400);

    // Act
    const first = readNotes(`${sentence} ${'More text here. '.repeat(30)}`);
    const cut = readNotes(long);

    // Assess
    expect(first.benefitStatement).toBe(sentence);
    expect(cut.benefitStatement!.length).toBeLessThanOrEqual(BENEFIT_MAX);
    expect(cut.benefitStatement!.endsWith('x…')).toBe(true);
  });

  it('says nothing of notes that hold nothing', () => {
    expect(readNotes('  \n\n<br>\n')).toEqual({ urls: [] });
  });

  it('gives, for any notes, a description the contract takes as plain text and bounds that hold', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('<', '>', 'a', '/', '!', '?', '-', '*', '`', '[', ']', '(', ')', '&', ';', '#', ' ', '\n', 'é') }),
        (markdown) => {
          const notes = readNotes(markdown);
          if (notes.description !== undefined) {
            expect(v.safeParse(PlainText(DESCRIPTION_MAX), notes.description).success).toBe(true);
            expect(notes.description.length).toBeGreaterThan(0);
          }
          if (notes.benefitStatement !== undefined) {
            expect(notes.benefitStatement.length).toBeGreaterThan(0);
            expect(notes.benefitStatement.length).toBeLessThanOrEqual(BENEFIT_MAX);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readEvent', () => {
  const github = { signing: 'github' as const, event: 'release' };
  const standard = { signing: 'standard' as const };

  it("reads GitHub's published release: its id, its name or else its tag, its notes and page", () => {
    const release = { id: 7, tag_name: 'v1.2.0', name: null, body: 'Notes', html_url: 'https://github.com/a/b/releases/tag/v1.2.0' };
    expect(readEvent(github, { action: 'published', release })).toEqual({
      event: 'release.published',
      action: 'publish',
      release: { id: '7', name: 'v1.2.0', notes: 'Notes', url: 'https://github.com/a/b/releases/tag/v1.2.0', urls: [] },
    });
  });

  it('answers 400 naming the field of a release event that lacks it', () => {
    expect(() => readEvent(github, { action: 'edited', release: { id: 7 } })).toThrow(
      expect.objectContaining({ status: 400, message: 'Invalid release.tag_name' }),
    );
    expect(() => readEvent(standard, { type: 'release.updated', data: { id: 'r', name: 'n', extra: 1 } })).toThrow(
      expect.objectContaining({ status: 400, message: 'Invalid data.extra' }),
    );
  });

  it('ignores what is not a release, unread', () => {
    expect(readEvent({ signing: 'github' }, { anything: true })).toEqual({
      event: 'unnamed',
      action: 'ignore',
      reason: 'only release events are taken in, not one without X-GitHub-Event',
    });
    expect(readEvent(standard, { type: 'invoice.paid', data: 'whatever' })).toMatchObject({ action: 'ignore', event: 'invoice.paid' });
  });
});
