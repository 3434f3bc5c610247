/** Finds e-mail addresses, phone numbers, cards, secrets and IP addresses in plain text, as character ranges. No browser here. */
import cardValidator from 'card-validator';
import ipaddr from 'ipaddr.js';
import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import type { RedactKind } from '#shared/schemas/redaction.ts';
import { findSecrets } from '#shared/services/capture/redaction/secrets.ts';

export interface Finding {
  kind: RedactKind;
  start: number;
  end: number;
}

export interface DetectOptions {
  /** The country national numbers (without +) are read in: the page's language region, else US. */
  defaultCountry?: CountryCode;
}

// RFC 5322's dot-atom, as people write addresses; the domain needs a dot and a letter TLD.
const EMAIL =
  /(?<![\w.%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,24})(?![\w-])/g;
// Asset names such as logo@2x.png look like addresses; no TLD is a file type.
const FILE_TYPES = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'ico', 'css', 'js', 'json', 'html', 'pdf']);

// The groupings cards are printed in: 4-4-4-4(-1..3) and Amex's 4-6-5 with one kind of separator, or digits alone.
const CARD = /(?<![\d-])(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?|\d{4}([ -])\d{6}\2\d{4,5}|\d{13,19})(?![\d-]|\.\d)/g;

// A dotted quad not inside a longer dotted run (a four-part version such as v1.2.3.4 or 1.2.3.4.5).
const IPV4 = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)/g;
// Candidates only: ipaddr.js decides. Times (12:30:45) and MAC addresses are not valid IPv6.
const IPV6 = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?(?![\w:]|\.\d)/g;

/** Phone numbers written bare (4155552671) are more often order or account numbers: one needs a separator or a +. */
const PHONE_SHAPE = /^\+|[\s().-]/;
/** Nor is one glued to a longer token (INV-2024-000123). */
const GLUED = /[\w-]/;
const DECIMAL_BEFORE = /\d[.,]$/;
const DECIMAL_AFTER = /^[.,]\d/;
/** Digits of a decimal number (1.2511263318488451): a digit and a decimal separator before, or a separator and a digit after. */
const inDecimal = (text: string, start: number, end: number): boolean =>
  DECIMAL_BEFORE.test(text.slice(Math.max(0, start - 2), start)) || DECIMAL_AFTER.test(text.slice(end, end + 2));
// Dates as numbers are written: 2016-05-17, 2016/5/17, 17.05.2016, 5/17/16. Phone numbers are not dates.
const DATE = /\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}|\d{1,2}\/\d{1,2}\/\d{2}/g;
// A clock time next to the digits (10:23, 10h23): a date-time's hour, not a phone number's last digits.
const TIME_AFTER = /^\s?[:h]\d/;
const TIME_BEFORE = /\d[:h]\s?$/;

function* matches(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) yield match;
}

function emails(text: string): Finding[] {
  const found: Finding[] = [];
  for (const match of matches(EMAIL, text)) {
    if (FILE_TYPES.has(match[1]!.toLowerCase())) continue;
    found.push({ kind: 'email', start: match.index, end: match.index + match[0].length });
  }
  return found;
}

// Runs of digits and the separators numbers are written with, on one line: libphonenumber's
// search over a whole page costs tens of ms, over these alone next to nothing.
const PHONE_CANDIDATE = /\+?[\d(][\d \t\u00a0()./-]{5,40}\d/g;

/** Where the groups of a written number break, counted in digits from its end. */
function breaksFromEnd(written: string): Set<number> {
  const groups = written.split(/\D+/).filter(Boolean);
  const breaks = new Set<number>();
  let digits = 0;
  for (let i = groups.length - 1; i > 0; i -= 1) breaks.add((digits += groups[i]!.length));
  return breaks;
}

/** A number without + is grouped as its country writes it: groups may run together, not break elsewhere (2024-000123 is not (202) 400-0123). */
function groupedAsPhone(written: string, number: PhoneNumber): boolean {
  if (written.startsWith('+')) return true;
  const allowed = breaksFromEnd(number.formatNational());
  // Breaks before the national number (a trunk prefix, 1-800-…) are the writer's own.
  return [...breaksFromEnd(written)].every((at) => at >= number.nationalNumber.length || allowed.has(at));
}

function dateOrTime(text: string, start: number, end: number): boolean {
  if (TIME_AFTER.test(text.slice(end, end + 3)) || TIME_BEFORE.test(text.slice(Math.max(0, start - 3), start))) return true;
  const from = Math.max(0, start - 10);
  for (const date of text.slice(from, end + 10).matchAll(DATE)) if (from + date.index < end && from + date.index + date[0].length > start) return true;
  return false;
}

function phones(text: string, defaultCountry: CountryCode): Finding[] {
  const found: Finding[] = [];
  for (const candidate of matches(PHONE_CANDIDATE, text)) {
    // Too short, or bare digits (which PHONE_SHAPE refuses whatever is found in them).
    if (candidate[0].replace(/\D/g, '').length < 7 || !PHONE_SHAPE.test(candidate[0])) continue;
    for (const { number, startsAt, endsAt } of findPhoneNumbersInText(candidate[0], { defaultCountry })) {
      const start = candidate.index + startsAt;
      const end = candidate.index + endsAt;
      const written = text.slice(start, end);
      if (!PHONE_SHAPE.test(written) || GLUED.test(text[start - 1] ?? ' ') || GLUED.test(text[end] ?? ' ')) continue;
      if (inDecimal(text, start, end) || dateOrTime(text, start, end) || !groupedAsPhone(written, number)) continue;
      found.push({ kind: 'phone', start, end });
    }
  }
  return found;
}

// What a URL runs back to from a digit run inside it (…/tr?id=687168111412131&…): there, an id, not a card.
const URL_HEAD = /(?:[a-z][\w+.-]*:\/\/|\bwww\.)[^\s"'<>]*$/i;

function cards(text: string): Finding[] {
  const found: Finding[] = [];
  for (const match of matches(CARD, text)) {
    const start = match.index;
    const end = start + match[0].length;
    if (inDecimal(text, start, end) || URL_HEAD.test(text.slice(Math.max(0, start - 300), start))) continue;
    if (cardValidator.number(match[0].replace(/[ -]/g, '')).isValid) found.push({ kind: 'card', start, end });
  }
  return found;
}

function ips(text: string): Finding[] {
  const found: Finding[] = [];
  for (const match of matches(IPV4, text)) {
    if (ipaddr.IPv4.isValidFourPartDecimal(match[0])) found.push({ kind: 'ip', start: match.index, end: match.index + match[0].length });
  }
  for (const match of matches(IPV6, text)) {
    if (/[0-9A-Fa-f]/.test(match[0]) && ipaddr.IPv6.isValid(match[0])) found.push({ kind: 'ip', start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/** Overlapping findings become one, of the longest one's kind: an address inside a connection string is covered once. */
export function mergeFindings(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const finding of sorted) {
    const last = merged.at(-1);
    if (!last || finding.start >= last.end) {
      merged.push({ ...finding });
      continue;
    }
    if (finding.end - finding.start > last.end - last.start) last.kind = finding.kind;
    last.end = Math.max(last.end, finding.end);
  }
  return merged;
}

/** Every finding of the asked kinds in `text`, merged where they overlap, in order. */
export async function findSensitive(text: string, kinds: readonly RedactKind[], options: DetectOptions = {}): Promise<Finding[]> {
  const wanted = new Set(kinds);
  const found: Finding[] = [];
  if (wanted.has('email')) found.push(...emails(text));
  if (wanted.has('phone')) found.push(...phones(text, options.defaultCountry ?? 'US'));
  if (wanted.has('card')) found.push(...cards(text));
  if (wanted.has('ip')) found.push(...ips(text));
  if (wanted.has('secret')) found.push(...(await findSecrets(text)).map((range) => ({ kind: 'secret' as const, ...range })));
  return mergeFindings(found);
}
