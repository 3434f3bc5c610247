/**
 * The bounds of issue 32's fields of POST /api/screenshot (viewport, headers, cookies, userAgent,
 * css, click, reducedMotion): each refused past its bound with a hint naming the field and never
 * the value, each accepted at it, and credentials kept out of the cache key.
 */
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '#shared/docs/openapi.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { HttpError } from '#shared/errors.ts';
import { parseWith } from '#shared/http/validation.ts';
import { capturePage } from '#shared/routes/screenshot.ts';
import {
  credentialBytes,
  MAX_COOKIE_NAME_LENGTH,
  MAX_COOKIE_VALUE_LENGTH,
  MAX_COOKIES,
  MAX_CREDENTIAL_BYTES,
  MAX_CSS_LENGTH,
  MAX_HEADER_NAME_LENGTH,
  MAX_HEADER_VALUE_LENGTH,
  MAX_HEADERS,
  MAX_HIDE_SELECTORS,
  MAX_SELECTOR_LENGTH,
  MAX_TARGET_URL_LENGTH,
  MAX_USER_AGENT_LENGTH,
  ScreenshotRequest,
} from '#shared/schemas/screenshot.ts';
import { captureOptionsOf, credentialsOf, optionsVariant } from '#shared/services/capture/options.ts';

const URL_ONLY = { url: 'https://example.com/' };
/** A value no hint or message may repeat. */
const SECRET = 'TopSecretValue42';

function refusal(body: unknown): { status: number; code: string; message: string; hint: string } {
  try {
    parseWith(ScreenshotRequest, body, 'body');
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const { status, code, message, hint } = error as HttpError;
    return { status, code, message, hint };
  }
  throw new Error('the body was accepted');
}

const headers = (count: number, length = MAX_HEADER_VALUE_LENGTH) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`X-Header-${i}`, 'v'.repeat(length)]));
const cookies = (count: number, length = MAX_COOKIE_VALUE_LENGTH - 4) =>
  Array.from({ length: count }, (_, i) => ({
    name: `c${i}`,
    value: 'v'.repeat(length),
    path: '/app',
    secure: true,
    httpOnly: true,
    sameSite: 'None',
  }));

describe('ScreenshotRequest: issue 32 fields', () => {
  it('accepts every field at its bounds, headers and cookies within their total, and all of them together fit the route body limit', () => {
    // Prepare: as many headers and cookies as allowed, one header name and one value as long as allowed
    const body = {
      url: `https://example.com/${'p'.repeat(MAX_TARGET_URL_LENGTH - 21)}`,
      viewport: { width: 3840, height: 2160 },
      headers: { ...headers(MAX_HEADERS - 2, 8), 'X-Long': 'v'.repeat(MAX_HEADER_VALUE_LENGTH), ['A'.repeat(MAX_HEADER_NAME_LENGTH)]: 'v' },
      cookies: cookies(MAX_COOKIES, 40),
      userAgent: 'u'.repeat(MAX_USER_AGENT_LENGTH),
      css: '"'.repeat(MAX_CSS_LENGTH),
      click: 'c'.repeat(MAX_SELECTOR_LENGTH),
      hideSelectors: Array.from({ length: MAX_HIDE_SELECTORS }, () => 'h'.repeat(MAX_SELECTOR_LENGTH)),
      reducedMotion: true,
    };

    // Act
    const parsed = parseWith(ScreenshotRequest, body, 'body');

    // Assess: the style sheet is all quotes, the worst case for JSON escaping
    expect(credentialBytes(body)).toBeLessThanOrEqual(MAX_CREDENTIAL_BYTES);
    expect(parsed).toMatchObject(body);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(capturePage.body!.maxBytes);
  });

  it.each([
    ['a viewport narrower than 320', { viewport: { width: 319, height: 900 } }, 'viewport.width'],
    ['a viewport wider than 3840', { viewport: { width: 3841, height: 900 } }, 'viewport.width'],
    ['a viewport lower than 240', { viewport: { width: 1440, height: 239 } }, 'viewport.height'],
    ['a viewport taller than 2160', { viewport: { width: 1440, height: 2161 } }, 'viewport.height'],
    ['a fractional viewport', { viewport: { width: 1440.5, height: 900 } }, 'viewport.width'],
    ['a viewport without its height', { viewport: { width: 1440 } }, 'viewport.height'],
    ['a viewport with a field it does not know', { viewport: { width: 1440, height: 900, scale: 2 } }, 'viewport.scale'],
    ['21 headers', { headers: headers(MAX_HEADERS + 1) }, 'headers: at most 20 headers'],
    ['headers past their total in bytes', { headers: headers(3) }, `headers: headers and cookies together are at most ${MAX_CREDENTIAL_BYTES} bytes`],
    [
      'cookies that take headers past their total',
      { headers: headers(1), cookies: cookies(1) },
      `cookies: headers and cookies together are at most ${MAX_CREDENTIAL_BYTES} bytes`,
    ],
    ['a header name over 256 characters', { headers: { ['A'.repeat(MAX_HEADER_NAME_LENGTH + 1)]: 'v' } }, 'at most 256'],
    ['a header name with a space', { headers: { 'X Pass': SECRET } }, 'headers.X Pass'],
    ['an empty header name', { headers: { '': SECRET } }, 'headers.'],
    ['a header value over 4096 characters', { headers: { 'X-Pass': SECRET.repeat(300) } }, 'headers.X-Pass: a header value has at most 4096'],
    ['a header value with a line break', { headers: { 'X-Pass': `${SECRET}\r\nHost: evil.example` } }, 'headers.X-Pass: a header value is printable ASCII'],
    ['a header value beyond ASCII', { headers: { 'X-Pass': `${SECRET}é` } }, 'headers.X-Pass: a header value is printable ASCII'],
    ['a header value that is not a string', { headers: { 'X-Pass': 42 } }, 'headers.X-Pass: a header value is a string'],
    ['one header twice, in two cases', { headers: { 'X-Pass': SECRET, 'x-pass': SECRET } }, 'each header name once'],
    ['headers as an array', { headers: [['X-Pass', SECRET]] }, 'headers'],
    ['51 cookies', { cookies: cookies(MAX_COOKIES + 1, 1) }, 'cookies: at most 50 cookies'],
    ['a cookie without a value', { cookies: [{ name: 'session' }] }, 'cookies[0].value'],
    ['a cookie name over 256 characters', { cookies: [{ name: 'n'.repeat(MAX_COOKIE_NAME_LENGTH + 1), value: SECRET }] }, 'cookies[0].name'],
    ['a cookie name with an equals sign', { cookies: [{ name: 'a=b', value: SECRET }] }, 'cookies[0].name'],
    ['a cookie value over 4096 characters', { cookies: [{ name: 'session', value: SECRET.repeat(300) }] }, 'cookies[0].value: a cookie value has at most 4096'],
    ['a cookie value with a semicolon', { cookies: [{ name: 'session', value: `${SECRET}; Domain=evil.example` }] }, 'cookies[0].value'],
    ['a cookie name and value longer together than a browser keeps', { cookies: [{ name: 'n'.repeat(200), value: 'v'.repeat(4000) }] }, 'cookies[0]'],
    ['a cookie with a domain', { cookies: [{ name: 'session', value: SECRET, domain: 'example.com' }] }, 'Remove cookies[0].domain'],
    ['a cookie path not starting with /', { cookies: [{ name: 'session', value: SECRET, path: 'app' }] }, 'cookies[0].path'],
    [
      'a cookie with sameSite None but not secure',
      { cookies: [{ name: 'session', value: SECRET, sameSite: 'None' }] },
      'cookies[0]: sameSite None needs secure',
    ],
    ['a userAgent over 512 characters', { userAgent: 'u'.repeat(MAX_USER_AGENT_LENGTH + 1) }, 'userAgent'],
    ['an empty userAgent', { userAgent: '' }, 'userAgent'],
    ['a userAgent with a line break', { userAgent: 'Acme\r\nX-Other: 1' }, 'userAgent'],
    ['css over 20,000 characters', { css: 'a'.repeat(MAX_CSS_LENGTH + 1) }, 'css'],
    ['css that is not a string', { css: { body: 'red' } }, 'css'],
    ['a click selector over 512 characters', { click: 'c'.repeat(MAX_SELECTOR_LENGTH + 1) }, 'click'],
    ['an empty click selector', { click: '' }, 'click'],
    ['reducedMotion as a string', { reducedMotion: 'yes' }, 'reducedMotion'],
  ])('refuses %s with 400 invalid_request naming the field', (_case, fields, hint) => {
    // Act
    const error = refusal({ ...URL_ONLY, ...fields });

    // Assess
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(error.hint).toContain(hint);
    expect(`${error.message} ${error.hint}`).not.toContain(SECRET);
  });

  it('refuses a sameSite the browser does not know with 400 unsupported_value', () => {
    expect(refusal({ ...URL_ONLY, cookies: [{ name: 's', value: 'v', sameSite: 'strict' }] })).toMatchObject({
      status: 400,
      code: 'unsupported_value',
      hint: 'cookies[0].sameSite must be one of: Strict, Lax, None.',
    });
  });

  it.each([
    'Host',
    'host',
    'Cookie',
    'Cookie2',
    'Content-Length',
    'Connection',
    'Transfer-Encoding',
    'Upgrade',
    'Keep-Alive',
    'TE',
    'Trailer',
    'Proxy-Authorization',
    'Proxy-Connection',
    'Sec-Fetch-Site',
    'sec-ch-ua',
    'X-Forwarded-For',
    'X-Forwarded-Host',
    'Forwarded',
    'Origin',
    'Referer',
    'Accept-Encoding',
    'Accept-Charset',
    'Access-Control-Request-Method',
    'Date',
    'DNT',
    'Expect',
    'Set-Cookie',
    'Via',
    'X-HTTP-Method-Override',
    'X-Real-IP',
  ])('refuses the header %s, which a browser or a proxy sets, naming it', (name) => {
    // Act
    const error = refusal({ ...URL_ONLY, headers: { Authorization: 'Bearer t', [name]: SECRET } });

    // Assess
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', message: `Invalid headers.${name}` });
    expect(error.hint).toMatch(new RegExp(`^headers\\.${name}: this header is set by the browser or a proxy and cannot be sent`));
    expect(error.hint).not.toContain(SECRET);
  });

  it.each(['Authorization', 'X-Api-Key', 'Accept-Language', 'X-Tenant'])('accepts the header %s', (name) => {
    expect(parseWith(ScreenshotRequest, { ...URL_ONLY, headers: { [name]: 'value' } }, 'body').headers).toEqual({ [name]: 'value' });
  });
});

describe('credentials and the cache key', () => {
  it('keeps headers and cookies out of the capture options, so out of the cache key', () => {
    // Prepare
    const request = parseWith(
      ScreenshotRequest,
      { ...URL_ONLY, headers: { Authorization: `Bearer ${SECRET}` }, cookies: [{ name: 's', value: SECRET }] },
      'body',
    );

    // Act
    const options = captureOptionsOf(request);

    // Assess
    expect(JSON.stringify(options)).not.toContain(SECRET);
    expect(optionsVariant(options, 'desktop')).toBeUndefined();
    expect(credentialsOf(request)).toEqual({ headers: { Authorization: `Bearer ${SECRET}` }, cookies: [{ name: 's', value: SECRET }] });
  });

  it('counts empty headers and cookies as none', () => {
    expect(credentialsOf({ headers: {}, cookies: [] })).toBeUndefined();
  });
});

describe('/openapi.json', () => {
  it('publishes the fields with their bounds and a description', () => {
    // Act
    const document = buildOpenApi('http://easel.test', FULL_ROUTE_LIST) as unknown as Record<string, any>;

    // Assess
    const schema = document.paths['/api/screenshot'].post.requestBody.content['application/json'].schema;
    const body = schema.$ref ? document.components.schemas[schema.$ref.split('/').at(-1)] : schema;
    expect(body.properties.viewport).toMatchObject({
      type: 'object',
      properties: { width: { type: 'integer', minimum: 320, maximum: 3840 }, height: { type: 'integer', minimum: 240, maximum: 2160 } },
      additionalProperties: false,
    });
    expect(body.properties.headers).toMatchObject({ type: 'object', additionalProperties: { type: 'string', maxLength: MAX_HEADER_VALUE_LENGTH } });
    expect(body.properties.cookies).toMatchObject({ type: 'array', maxItems: MAX_COOKIES, items: { type: 'object', required: ['name', 'value'] } });
    expect(body.properties.userAgent).toMatchObject({ type: 'string', maxLength: MAX_USER_AGENT_LENGTH });
    expect(body.properties.css).toMatchObject({ type: 'string', maxLength: MAX_CSS_LENGTH });
    expect(body.properties.click).toMatchObject({ type: 'string', maxLength: MAX_SELECTOR_LENGTH });
    expect(body.properties.reducedMotion).toMatchObject({ type: 'boolean', default: false });
    for (const name of ['viewport', 'headers', 'cookies', 'userAgent', 'css', 'click', 'reducedMotion']) {
      expect(body.properties[name].description, name).toEqual(expect.stringMatching(/\w{4,}/));
    }
  });
});
