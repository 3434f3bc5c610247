/** The capture form's Advanced options as request fields, a pasted Cookie header, and what the editor keeps of a capture. */
import { describe, expect, it } from 'vitest';
import * as schema from '#shared/schemas/screenshot.ts';
import {
  AdvancedProblem,
  advancedFields,
  capturedSource,
  defaultDevice,
  MAX_CAPTURE_PIXELS,
  MAX_CREDENTIAL_BYTES,
  MAX_COOKIES,
  MAX_CSS_LENGTH,
  MAX_HEADERS,
  MAX_NAME_LENGTH,
  MAX_USER_AGENT_LENGTH,
  MAX_VALUE_LENGTH,
  mergeRows,
  parseCookieHeader,
  VIEWPORT_BOUNDS,
} from '#editor/src/model/capture-request.ts';
import type { AdvancedInput } from '#editor/src/model/capture-request.ts';
import { explain, refusedField } from '#editor/src/io/problem-text.ts';

const NONE: AdvancedInput = {
  scale: 1,
  viewport: 'device',
  customWidth: '',
  customHeight: '',
  cookies: [],
  headers: [],
  userAgent: '',
  click: '',
  css: '',
  reducedMotion: false,
};
const SECRET = 'zx81-very-secret-session';

function refusal(input: Partial<AdvancedInput>): AdvancedProblem {
  try {
    advancedFields({ ...NONE, ...input });
  } catch (error) {
    expect(error).toBeInstanceOf(AdvancedProblem);
    return error as AdvancedProblem;
  }
  throw new Error('the input was accepted');
}

describe('advancedFields', () => {
  it('sends nothing when every control is at its default, blank rows included', () => {
    expect(advancedFields({ ...NONE, cookies: [{ name: ' ', value: '' }], headers: [{ name: '', value: '' }], css: ' \n' })).toEqual({});
  });

  it('sends every option chosen, trimmed where spaces cannot matter', () => {
    // Act
    const fields = advancedFields({
      scale: 1,
      viewport: '1440x900',
      customWidth: '999',
      customHeight: '999',
      cookies: [
        { name: ' session ', value: ` ${SECRET} ` },
        { name: '', value: '' },
      ],
      headers: [{ name: 'Authorization', value: 'Bearer abc' }],
      userAgent: ' EaselBot/1.0 ',
      click: ' button.menu ',
      css: '.chat { display: none }\n',
      reducedMotion: true,
    });

    // Assess: the preset wins over the custom fields, which only Custom reads
    expect(fields).toEqual({
      viewport: { width: 1440, height: 900 },
      cookies: [{ name: 'session', value: SECRET }],
      headers: { Authorization: 'Bearer abc' },
      userAgent: 'EaselBot/1.0',
      click: 'button.menu',
      css: '.chat { display: none }\n',
      reducedMotion: true,
    });
  });

  it.each([
    ['320', '240', { width: 320, height: 240 }],
    ['3840', '2160', { width: 3840, height: 2160 }],
    [' 1366 ', '768', { width: 1366, height: 768 }],
  ])('takes a custom viewport of %s × %s within the bounds', (customWidth, customHeight, viewport) => {
    expect(advancedFields({ ...NONE, viewport: 'custom', customWidth, customHeight })).toEqual({ viewport });
  });

  it.each([
    ['319', '800', 'width'],
    ['3841', '800', 'width'],
    ['1280.5', '800', 'width'],
    ['', '800', 'width'],
    ['1280', '239', 'height'],
    ['1280', '2161', 'height'],
    ['1280', 'tall', 'height'],
  ])('refuses a custom viewport of %s × %s before sending, naming the %s', (customWidth, customHeight, side) => {
    // Act
    const problem = refusal({ viewport: 'custom', customWidth, customHeight });

    // Assess
    expect(problem.control).toEqual({ field: side });
    expect(problem.message).toMatch(
      side === 'width' ? /width is a whole number of pixels from 320 to 3,840\.$/ : /height is a whole number of pixels from 240 to 2,160\.$/,
    );
  });

  it('refuses a phone viewport whose picture at 2× would pass the pixel limit, and takes the same at 1×', () => {
    // Prepare: 3840 × 2160 at 2× is 33,177,600 image pixels; 3840 × 2048 is 31,457,280, the limit
    const large = { viewport: 'custom', customWidth: '3840', customHeight: '2160' };

    // Act
    const problem = refusal({ ...large, scale: 2 });

    // Assess
    expect(problem.control).toEqual({ field: 'height' });
    expect(problem.message).toBe('Drawn at 2× for a phone, a viewport has at most 7,864,320 pixels in all; 3840 × 2160 has 8,294,400.');
    expect(advancedFields({ ...NONE, ...large, scale: 1 })).toEqual({ viewport: { width: 3840, height: 2160 } });
    expect(advancedFields({ ...NONE, ...large, customHeight: '2048', scale: 2 })).toEqual({ viewport: { width: 3840, height: 2048 } });
  });

  it.each([
    ['a value without a name', { cookies: [{ name: '', value: SECRET }] }, { field: 'cookies', row: 0, part: 'name' }],
    ['a name with a space', { cookies: [{ name: 'my session', value: SECRET }] }, { field: 'cookies', row: 0, part: 'name' }],
    ['a name too long', { cookies: [{ name: 'n'.repeat(MAX_NAME_LENGTH + 1), value: SECRET }] }, { field: 'cookies', row: 0, part: 'name' }],
    [
      'a value with a semicolon',
      {
        cookies: [
          { name: 'a', value: '1' },
          { name: 'b', value: `${SECRET};x` },
        ],
      },
      { field: 'cookies', row: 1, part: 'value' },
    ],
    ['a name and value too long together', { cookies: [{ name: 'ab', value: 'v'.repeat(MAX_VALUE_LENGTH - 1) }] }, { field: 'cookies', row: 0, part: 'value' }],
    ['a header value too long', { headers: [{ name: 'X-Team', value: 'v'.repeat(MAX_VALUE_LENGTH + 1) }] }, { field: 'headers', row: 0, part: 'value' }],
    [
      'the same cookie twice',
      {
        cookies: [
          { name: 'a', value: '1' },
          { name: 'a', value: SECRET },
        ],
      },
      { field: 'cookies', row: 1, part: 'name' },
    ],
    [
      'a 51st cookie',
      { cookies: Array.from({ length: MAX_COOKIES + 1 }, (_, i) => ({ name: `c${i}`, value: SECRET })) },
      { field: 'cookies', row: MAX_COOKIES, part: 'name' },
    ],
    [
      'a header twice, in another case',
      {
        headers: [
          { name: 'X-Team', value: '1' },
          { name: 'x-team', value: SECRET },
        ],
      },
      { field: 'headers', row: 1, part: 'name' },
    ],
    ['a Cookie header', { headers: [{ name: 'Cookie', value: `s=${SECRET}` }] }, { field: 'headers', row: 0, part: 'name' }],
    ['a header value with a line break', { headers: [{ name: 'X-Team', value: `${SECRET}\r\nHost: evil` }] }, { field: 'headers', row: 0, part: 'value' }],
    [
      'headers past the total in bytes',
      { headers: [0, 1, 2].map((i) => ({ name: `X-H${i}`, value: 'v'.repeat(MAX_VALUE_LENGTH - 10) })) },
      { field: 'headers', row: 2, part: 'value' },
    ],
    [
      'a cookie that takes headers past the total',
      { headers: [{ name: 'X-H', value: 'v'.repeat(MAX_VALUE_LENGTH) }], cookies: [{ name: 's', value: 'v'.repeat(MAX_VALUE_LENGTH - 10) }] },
      { field: 'cookies', row: 0, part: 'value' },
    ],
    [
      'a 21st header',
      { headers: Array.from({ length: MAX_HEADERS + 1 }, (_, i) => ({ name: `X-H${i}`, value: SECRET })) },
      { field: 'headers', row: MAX_HEADERS, part: 'name' },
    ],
  ])('refuses %s before sending, pointing at the row, without repeating the value', (_case, input, control) => {
    // Act
    const problem = refusal(input);

    // Assess
    expect(problem.control).toEqual(control);
    expect(problem.message).not.toContain(SECRET);
  });

  it.each([
    ['userAgent', { userAgent: 'u'.repeat(MAX_USER_AGENT_LENGTH + 1) }],
    ['css', { css: 'a{}'.padEnd(MAX_CSS_LENGTH + 1, ' ') }],
  ])('refuses a %s over its length before sending', (field, input) => {
    expect(refusal(input).control).toEqual({ field });
  });

  it('keeps the bounds of the API schema, so the form refuses exactly what the API would', () => {
    expect({
      VIEWPORT_BOUNDS,
      MAX_COOKIES,
      MAX_HEADERS,
      MAX_USER_AGENT_LENGTH,
      MAX_CSS_LENGTH,
      MAX_NAME_LENGTH,
      MAX_VALUE_LENGTH,
      MAX_CREDENTIAL_BYTES,
    }).toEqual({
      VIEWPORT_BOUNDS: schema.VIEWPORT_BOUNDS,
      MAX_COOKIES: schema.MAX_COOKIES,
      MAX_HEADERS: schema.MAX_HEADERS,
      MAX_USER_AGENT_LENGTH: schema.MAX_USER_AGENT_LENGTH,
      MAX_CSS_LENGTH: schema.MAX_CSS_LENGTH,
      MAX_NAME_LENGTH: schema.MAX_HEADER_NAME_LENGTH,
      MAX_VALUE_LENGTH: schema.MAX_HEADER_VALUE_LENGTH,
      MAX_CREDENTIAL_BYTES: schema.MAX_CREDENTIAL_BYTES,
    });
    expect([schema.MAX_COOKIE_NAME_LENGTH, schema.MAX_COOKIE_VALUE_LENGTH, schema.MAX_CAPTURE_PIXELS]).toEqual([
      MAX_NAME_LENGTH,
      MAX_VALUE_LENGTH,
      MAX_CAPTURE_PIXELS,
    ]);
  });
});

describe('parseCookieHeader', () => {
  it.each([
    [
      'Cookie: a=1; b=2',
      [
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
    ],
    [
      'cookie:a=1;b=2;',
      [
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
    ],
    [
      'a=1; b=2',
      [
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
    ],
    [
      'token=abc==; q="quoted"',
      [
        { name: 'token', value: 'abc==' },
        { name: 'q', value: 'quoted' },
      ],
    ],
    [
      'Cookie: a=1\nCookie: b=2',
      [
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
    ],
    [
      'a=; =orphan; flag; b=2',
      [
        { name: 'a', value: '' },
        { name: 'b', value: '2' },
      ],
    ],
    ['nothing here', []],
  ])('reads %j', (text, cookies) => {
    expect(parseCookieHeader(text)).toEqual(cookies);
  });
});

describe('mergeRows', () => {
  it('replaces a row of the same name, adds the others after the filled rows, and drops blank rows', () => {
    // Prepare
    const rows = [
      { name: 'a', value: 'old' },
      { name: '', value: '' },
      { name: 'keep', value: 'k' },
    ];

    // Act
    const merged = mergeRows(rows, [
      { name: 'a', value: 'new' },
      { name: 'b', value: '2' },
    ]);

    // Assess
    expect(merged).toEqual([
      { name: 'a', value: 'new' },
      { name: 'keep', value: 'k' },
      { name: 'b', value: '2' },
    ]);
    expect(rows[0]).toEqual({ name: 'a', value: 'old' });
  });
});

describe('capturedSource', () => {
  it('keeps the page and how it was framed, and nothing of the cookies and headers sent with it', () => {
    // Prepare: the request as the form sends it
    const request = {
      url: 'https://app.example/dashboard',
      deviceType: 'desktop' as const,
      colorScheme: 'light' as const,
      viewport: { width: 1440, height: 900 },
      cookies: [{ name: 'session', value: SECRET }],
      headers: { Authorization: `Bearer ${SECRET}` },
    };

    // Act
    const kept = capturedSource(request, 'https://app.example/dashboard');

    // Assess
    expect(kept).toEqual({
      kind: 'capture',
      density: 1,
      title: 'app.example/dashboard',
      description: 'capture of https://app.example/dashboard (desktop, light, 1440×900)',
      address: 'https://app.example/dashboard',
    });
    expect(JSON.stringify(kept)).not.toContain(SECRET);
    // Control: the secret is in the request itself, so the check above can fail
    expect(JSON.stringify(request)).toContain(SECRET);
  });

  it('describes a phone capture at its density without a viewport', () => {
    expect(capturedSource({ deviceType: 'mobile', colorScheme: 'dark' }, 'https://example.com/').description).toBe(
      'capture of https://example.com/ (mobile, dark)',
    );
  });
});

describe('a refused capture option in words', () => {
  const capture = (message: string) => explain({ status: 400, code: 'invalid_request', message, path: '/api/screenshot' });

  it.each([
    [
      'Invalid viewport.width',
      'The viewport size was refused.',
      /320–3,840 and height of 240–2,160 px \(a phone's, drawn at 2×, at most 7,864,320 pixels in all\)/,
    ],
    ['Invalid headers.Host', 'The request header Host cannot be sent.', /cookies go under Cookies/],
    ['Invalid headers', 'One of the request headers was refused.', /under Advanced/],
    ['Invalid cookies[3].value', 'One of the cookies was refused.', /URL-encode/],
    ['Invalid userAgent', 'The user agent was refused.', /512 characters/],
    ['Invalid css', 'The CSS was refused.', /20,000 characters/],
    ['Invalid click', 'The click selector is not a CSS selector the page understands.', /under Advanced/],
    ['Invalid hideSelectors[2]', 'One of the hide selectors is not a CSS selector the page understands.', /under Advanced/],
    ['Unknown field reducedMotion', 'One of the capture options was refused.', /details below name the field/],
  ])('says "%s" as a sentence naming the option', (message, sentence, advice) => {
    // Act
    const words = capture(message);

    // Assess
    expect(words.message).toBe(sentence);
    expect(words.advice).toMatch(advice);
  });

  it('tells a click selector matching nothing from an element selector matching nothing, whatever the selector says', () => {
    const notFound = (message: string) => explain({ status: 404, code: 'not_found', message, path: '/api/screenshot' }).message;
    expect(notFound('No element matches the click selector')).toBe('Nothing on the page matches the click selector.');
    expect(notFound('No element matches the selector')).toBe('Nothing on the page matches the element selector.');
  });

  it('reads the field from the envelope message, and nothing from a message naming none', () => {
    expect(refusedField('Invalid cookies[0].value')).toEqual({ field: 'cookies', rest: '[0].value' });
    expect(refusedField('Body must be a JSON object')).toBeUndefined();
  });
});

describe('defaultDevice', () => {
  it.each([
    [320, 'mobile'],
    [375, 'mobile'],
    [600, 'mobile'],
    [601, 'desktop'],
    [1440, 'desktop'],
  ] as const)('starts a %i px wide screen on %s', (width, device) => {
    expect(defaultDevice(width)).toBe(device);
  });
});
