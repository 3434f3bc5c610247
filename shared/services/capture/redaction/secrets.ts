/** Secrets by secretlint's recommended preset, plus the two shapes it has no rule for: JWTs and bearer tokens. */
import { lintSource } from '@secretlint/core';
import { rules as recommended } from '@secretlint/secretlint-rule-preset-recommend';

// The preset's rules one by one: core ignores `disabled` on a rule inside a preset, and the page's
// own text must not switch detection off with a "secretlint-disable" comment.
const IGNORED_RULES = new Set(['@secretlint/secretlint-rule-filter-comments']);
// An access key id alone is worth covering; the rule only looks for secret keys unless told.
const RULE_OPTIONS: Record<string, object> = { '@secretlint/secretlint-rule-aws': { enableIDScanRule: true } };
const CONFIG = {
  rules: recommended
    .filter((rule) => !IGNORED_RULES.has(rule.meta.id))
    .map((rule) => ({ id: rule.meta.id, rule, ...(RULE_OPTIONS[rule.meta.id] ? { options: RULE_OPTIONS[rule.meta.id] } : {}) })),
};

export interface SecretRange {
  start: number;
  end: number;
}

// Rules that judge a whole file (a GCP key file) report all of it; on a page that would be
// everything, so a finding longer than a large private key is dropped.
const LONGEST_SECRET = 20_000;

// header.payload.signature, base64url; the header must decode to JSON naming an algorithm.
const JWT = /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?![\w-])/g;
// RFC 6750's b64token after the scheme; the token is covered, the word stays.
const BEARER = /\bBearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/gi;

function isJwtHeader(token: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8')) as unknown;
    return typeof header === 'object' && header !== null && 'alg' in header;
  } catch {
    return false;
  }
}

function ownRules(text: string): SecretRange[] {
  const found: SecretRange[] = [];
  for (const match of text.matchAll(JWT)) {
    if (isJwtHeader(match[0])) found.push({ start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(BEARER)) {
    const start = match.index + match[0].length - match[1]!.length;
    found.push({ start, end: match.index + match[0].length });
  }
  return found;
}

/** Secrets in `text`, as ranges (possibly overlapping: the caller merges). */
export async function findSecrets(text: string): Promise<SecretRange[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'page.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  const linted: SecretRange[] = result.messages
    .filter((message) => message.range[1] - message.range[0] <= LONGEST_SECRET)
    .map((message) => ({ start: message.range[0], end: message.range[1] }));
  return [...linted, ...ownRules(text)];
}
