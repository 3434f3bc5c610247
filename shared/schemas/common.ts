import * as v from 'valibot';

/** As the WHATWG parser reads it. */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
}

export interface HttpUrlIssue extends v.BaseIssue<string> {
  readonly kind: 'validation';
  readonly type: 'http_url';
  readonly expected: null;
}

/** Its issue type `http_url` maps to the `invalid_url` code (shared/http/validation.ts). */
export function httpUrl(): v.BaseValidation<string, string, HttpUrlIssue> & { readonly requirement: (value: string) => boolean } {
  return {
    kind: 'validation',
    type: 'http_url',
    reference: httpUrl,
    async: false,
    expects: null,
    requirement: isHttpUrl,
    '~run'(dataset, config) {
      if (dataset.typed && !isHttpUrl(dataset.value)) {
        v._addIssue(this, 'URL', dataset, config, { message: 'Invalid URL: expected an absolute http(s) URL without credentials' });
      }
      return dataset;
    },
  };
}

/** Documented as `format: uri`. */
export const HttpUrl = v.pipe(v.string(), v.url(), httpUrl());

/** Comments, CDATA, doctype and processing instructions: fixed prefixes, nothing to close. */
const MARKUP_PREFIX = /<!--|<!\[CDATA\[|<![a-zA-Z]|<\?[a-zA-Z]/;
/** A tag start as HTML parsers read one (`</x` may be a bogus comment); `a < b and c > d` is text. */
const TAG_OPEN = /<(?:[a-zA-Z]|\/)/;

/**
 * A markup prefix, or a tag start with a `>` after it. Only the first tag start is checked, which
 * keeps this linear: `/<…[^>]*>/` backtracks quadratically on many unclosed `<`.
 */
function isMarkup(value: string): boolean {
  if (MARKUP_PREFIX.test(value)) return true;
  const open = TAG_OPEN.exec(value);
  return open !== null && value.includes('>', open.index + open[0].length);
}

/** Markup is refused rather than escaped later. */
export const PlainText = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    v.check((value) => !isMarkup(value), 'must be plain text: markup such as HTML tags is not allowed'),
  );

export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'));

/** The Idempotency-Key header of a workspace POST, described as the operation honours it. */
export const idempotencyKeyHeaders = (description: string) =>
  v.object({
    'idempotency-key': v.optional(
      v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(128, 'must be at most 128 characters'), v.description(description)),
    ),
  });

/** Of the POSTs that store their first answer (shared/http/idempotency.ts). */
export const IdempotencyKeyHeaders = idempotencyKeyHeaders(
  'Makes the request safe to retry for 24 hours: a repeat with the same body gets the first answer again, marked `Idempotent-Replayed: true`; another body with the same key is 400.',
);

/** `limit` (1 to 100) and `cursor` of a newest-first list. */
export const pageQuery = (defaultLimit: number) =>
  v.object({
    limit: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d+$/, 'must be an integer from 1 to 100'),
        v.transform(Number),
        v.integer(),
        v.minValue(1, 'must be an integer from 1 to 100'),
        v.maxValue(100, 'must be an integer from 1 to 100'),
        v.description('Page size, 1 to 100.'),
      ),
      String(defaultLimit),
    ),
    cursor: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(200, 'must be a nextCursor from an earlier page'),
        v.description('Where the page starts: the `nextCursor` of the previous page. Opaque; absent for the first page.'),
      ),
    ),
  });
