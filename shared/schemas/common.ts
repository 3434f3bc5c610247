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

/** Markup in a plain-text field: tags, comments, doctype or processing instructions. */
const MARKUP = /<\s*\/?\s*[a-zA-Z][^>]*>|<!--|<!\[CDATA\[|<![a-zA-Z]|<\?[a-zA-Z]/;

/** Plain text: anything that reads as HTML/XML markup is refused rather than escaped later. */
export const PlainText = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    v.check((value) => !MARKUP.test(value), 'must be plain text: markup such as HTML tags is not allowed'),
  );

/** A UUID path parameter (asset ids). */
export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'));
