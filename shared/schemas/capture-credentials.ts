/** The headers and cookies a capture signs in with: their bounds, names a browser forbids, and their total. */
import * as v from 'valibot';

export const MAX_HEADERS = 20;
export const MAX_HEADER_NAME_LENGTH = 256;
export const MAX_HEADER_VALUE_LENGTH = 4096;
export const MAX_COOKIES = 50;
export const MAX_COOKIE_NAME_LENGTH = 256;
export const MAX_COOKIE_VALUE_LENGTH = 4096;
/**
 * Bytes the headers and cookies may add to the request as sent: under what common servers take in
 * one request head (nginx 8 KiB a line, Apache 8,190 bytes a field, Node.js 16 KiB in all).
 */
export const MAX_CREDENTIAL_BYTES = 8_192;

/**
 * Headers a browser forbids a page to set (Fetch, "forbidden request-header"), hop-by-hop and proxy
 * headers: none may be sent, so none can steer a request or smuggle one.
 */
const FORBIDDEN_HEADERS = new Set([
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'access-control-request-private-network',
  'connection',
  'content-length',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'forwarded',
  'host',
  'keep-alive',
  'origin',
  'referer',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
  'x-http-method',
  'x-http-method-override',
  'x-method-override',
  'x-real-ip',
  'true-client-ip',
  'x-original-url',
  'x-rewrite-url',
]);
const FORBIDDEN_PREFIXES = ['proxy-', 'sec-', 'x-forwarded-'];

export function isForbiddenHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FORBIDDEN_HEADERS.has(lower) || FORBIDDEN_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

// RFC 9110 token: the characters a header or cookie name may have.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Messages never echo a value: header and cookie values are credentials.
const HeaderName = v.pipe(
  v.string(),
  v.minLength(1, 'a header name must not be empty'),
  v.maxLength(MAX_HEADER_NAME_LENGTH, `a header name has at most ${MAX_HEADER_NAME_LENGTH} characters`),
  v.regex(TOKEN, "a header name has only letters, digits and !#$%&'*+-.^_`|~"),
  v.check(
    (name) => !isForbiddenHeader(name),
    'this header is set by the browser or a proxy and cannot be sent (Host, Cookie, Content-Length, hop-by-hop, Proxy-*, Sec-*, X-Forwarded-* and the other headers a browser forbids); cookies go in the cookies field',
  ),
);
const HeaderValue = v.pipe(
  v.string('a header value is a string'),
  v.maxLength(MAX_HEADER_VALUE_LENGTH, `a header value has at most ${MAX_HEADER_VALUE_LENGTH} characters`),
  // ASCII only: other characters would reach the server as bytes each one may read differently.
  v.regex(/^[\t\x20-\x7e]*$/, 'a header value is printable ASCII, without control characters or line breaks (encode anything else)'),
);

const Cookie = v.pipe(
  v.strictObject({
    name: v.pipe(
      v.string(),
      v.minLength(1, 'a cookie name must not be empty'),
      v.maxLength(MAX_COOKIE_NAME_LENGTH, `a cookie name has at most ${MAX_COOKIE_NAME_LENGTH} characters`),
      v.regex(TOKEN, "a cookie name has only letters, digits and !#$%&'*+-.^_`|~"),
    ),
    value: v.pipe(
      v.string('a cookie value is a string'),
      v.maxLength(MAX_COOKIE_VALUE_LENGTH, `a cookie value has at most ${MAX_COOKIE_VALUE_LENGTH} characters`),
      // RFC 6265 cookie-octet: no spaces, quotes, commas, semicolons or backslashes.
      v.regex(
        /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/,
        'a cookie value has only printable ASCII without spaces, quotes, commas, semicolons or backslashes (encode it, e.g. URL-encode)',
      ),
    ),
    path: v.optional(
      v.pipe(v.string(), v.maxLength(1024), v.regex(/^\/[^\u0000-\u001f\u007f;]*$/, 'a cookie path starts with / and has no semicolons or control characters')),
    ),
    secure: v.optional(v.boolean()),
    httpOnly: v.optional(v.boolean()),
    sameSite: v.optional(v.picklist(['Strict', 'Lax', 'None'])),
  }),
  v.check((cookie) => cookie.sameSite !== 'None' || cookie.secure === true, 'sameSite None needs secure: true (browsers refuse it otherwise)'),
  v.check(
    (cookie) => cookie.name.length + cookie.value.length <= MAX_COOKIE_VALUE_LENGTH,
    `a cookie's name and value have at most ${MAX_COOKIE_VALUE_LENGTH} characters together (browsers drop a longer one)`,
  ),
  v.description("A cookie set for the target URL's host only (no domain can be given). path defaults to /."),
);

/** The `headers` and `cookies` fields of a capture. */
export const CredentialFields = {
  headers: v.optional(
    v.pipe(
      v.record(HeaderName, HeaderValue),
      v.check((headers) => Object.keys(headers).length <= MAX_HEADERS, `at most ${MAX_HEADERS} headers`),
      v.check(
        (headers) => new Set(Object.keys(headers).map((name) => name.toLowerCase())).size === Object.keys(headers).length,
        'each header name once (names are case-insensitive)',
      ),
      v.description(
        `At most ${MAX_HEADERS} request headers (names up to ${MAX_HEADER_NAME_LENGTH} characters, values up to ${MAX_HEADER_VALUE_LENGTH}), sent only with requests to the target URL's origin (scheme, host and port), never to another origin the page loads. Host, Cookie, Content-Length, hop-by-hop, Proxy-*, Sec-*, X-Forwarded-* and the other headers a browser forbids are 400. Headers and cookies together are at most ${MAX_CREDENTIAL_BYTES} bytes as sent. A capture with headers is never read from or written to the cache.`,
      ),
    ),
  ),
  cookies: v.optional(
    v.pipe(
      v.array(Cookie),
      v.maxLength(MAX_COOKIES, `at most ${MAX_COOKIES} cookies`),
      v.description(
        `At most ${MAX_COOKIES} cookies { name, value, path?, secure?, httpOnly?, sameSite? }, set for the target URL's host only before the page loads; headers and cookies together are at most ${MAX_CREDENTIAL_BYTES} bytes as sent. A capture with cookies is never read from or written to the cache.`,
      ),
    ),
  ),
};

/** What `headers` and `cookies` add to the request: `Name: value` and a line break each, and one Cookie header. */
export function credentialBytes(credentials: { headers?: Record<string, string>; cookies?: { name: string; value: string }[] }): number {
  const lines = Object.entries(credentials.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
  const cookies = credentials.cookies?.length ? [`Cookie: ${credentials.cookies.map(({ name, value }) => `${name}=${value}`).join('; ')}\r\n`] : [];
  // Names and values are ASCII by now (their own checks come first): one byte a character.
  return [...lines, ...cookies].join('').length;
}

export const TOO_MANY_CREDENTIAL_BYTES = `headers and cookies together are at most ${MAX_CREDENTIAL_BYTES} bytes as sent (each header as "Name: value", the cookies as one Cookie header), under what common servers accept in one request`;
