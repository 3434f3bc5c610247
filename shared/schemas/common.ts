import * as v from 'valibot';

/** True for an absolute http(s) URL without credentials, as the WHATWG parser reads it. */
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

/**
 * Validation action: an absolute http(s) URL without credentials. Its issue type `http_url`
 * maps to the `invalid_url` code (shared/http/validation.ts).
 */
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

/** A string field holding an absolute http(s) URL (documented as `format: uri`). */
export const HttpUrl = v.pipe(v.string(), v.url(), httpUrl());

/** Comments, CDATA, doctype and processing instructions: fixed prefixes, nothing to close. */
const MARKUP_PREFIX = /<!--|<!\[CDATA\[|<![a-zA-Z]|<\?[a-zA-Z]/;
/**
 * The start of a tag as an HTML parser reads one: `<` directly followed by a letter, or `</`
 * (an end tag, or with anything but a letter a bogus comment that hides text up to the next `>`).
 * `<` followed by a space or a digit is text to a browser: `a < b and c > d` is plain text.
 */
const TAG_OPEN = /<(?:[a-zA-Z]|\/)/;

/**
 * Whether text reads as HTML/XML markup: a markup prefix, or a tag start with a `>` somewhere
 * after it. Only the first tag start needs a `>` after it (any later one has fewer characters
 * after it), which keeps the check linear; `/<…[^>]*>/` backtracks quadratically on text with
 * many unclosed `<`, seconds of CPU for a body within the size limit.
 */
function isMarkup(value: string): boolean {
  if (MARKUP_PREFIX.test(value)) return true;
  const open = TAG_OPEN.exec(value);
  return open !== null && value.includes('>', open.index + open[0].length);
}

/** Plain text: anything that reads as HTML/XML markup is refused rather than escaped later. */
export const PlainText = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    v.check((value) => !isMarkup(value), 'must be plain text: markup such as HTML tags is not allowed'),
  );

/** A UUID path parameter (asset ids). */
export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'));
