/**
 * The capture form's Advanced options as request fields of POST /api/screenshot, checked against
 * the API's bounds so a slip is named before sending; and what of a capture the editor keeps.
 */

/** The bounds of shared/schemas/screenshot.ts (a unit test holds them equal). */
export const VIEWPORT_BOUNDS = { width: { min: 320, max: 3840 }, height: { min: 240, max: 2160 } } as const;
export const MAX_HEADERS = 20;
export const MAX_COOKIES = 50;
export const MAX_NAME_LENGTH = 256;
export const MAX_VALUE_LENGTH = 4096;
/** Bytes headers and cookies add to the request together, as sent. */
export const MAX_CREDENTIAL_BYTES = 8192;
export const MAX_USER_AGENT_LENGTH = 512;
export const MAX_CSS_LENGTH = 20_000;
/** Most image pixels one picture of the screen may have; a phone's viewport is drawn at 2×. */
export const MAX_CAPTURE_PIXELS = 1920 * 16_384;

export const VIEWPORT_PRESETS = [
  { id: '1280x800', width: 1280, height: 800 },
  { id: '1440x900', width: 1440, height: 900 },
  { id: '1920x1080', width: 1920, height: 1080 },
] as const;
/** The select's other values: the device type's own viewport, or the W × H typed. */
export const DEVICE_VIEWPORT = 'device';
export const CUSTOM_VIEWPORT = 'custom';

/** A screen at most this wide (CSS pixels) is a phone's: the capture form starts on the Phone device there. */
export const PHONE_SCREEN_MAX_WIDTH = 600;

/** The device a capture starts with: the kind of screen it is asked from, whose user most likely wants that page. */
export function defaultDevice(screenWidth: number): 'desktop' | 'mobile' {
  return screenWidth <= PHONE_SCREEN_MAX_WIDTH ? 'mobile' : 'desktop';
}

export interface NameValue {
  name: string;
  value: string;
}

export interface Viewport {
  width: number;
  height: number;
}

/** The Advanced controls' values as typed. */
export interface AdvancedInput {
  /** The device type's scale: the viewport is drawn at it. */
  scale: number;
  viewport: string;
  customWidth: string;
  customHeight: string;
  cookies: readonly NameValue[];
  headers: readonly NameValue[];
  userAgent: string;
  click: string;
  css: string;
  reducedMotion: boolean;
}

/** Only the fields away from the API's defaults. */
export interface AdvancedFields {
  viewport?: Viewport;
  cookies?: NameValue[];
  headers?: Record<string, string>;
  userAgent?: string;
  click?: string;
  css?: string;
  reducedMotion?: true;
}

/** Which control a refusal is about: a field, or one part of a cookie or header row. */
export type AdvancedControl =
  | { field: 'width' | 'height' | 'userAgent' | 'click' | 'css' }
  | { field: 'cookies' | 'headers'; row: number; part: 'name' | 'value' };

/** A value refused before sending. Its message never repeats a cookie or header value: those are credentials. */
export class AdvancedProblem extends Error {
  readonly control: AdvancedControl;

  constructor(message: string, control: AdvancedControl) {
    super(message);
    this.name = 'AdvancedProblem';
    this.control = control;
  }
}

// RFC 9110 token, the characters of a header or cookie name; RFC 6265 cookie-octet for a value.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

const count = (value: number) => value.toLocaleString('en');

function viewportOf(input: AdvancedInput): Viewport | undefined {
  if (input.viewport === DEVICE_VIEWPORT) return undefined;
  const preset = VIEWPORT_PRESETS.find((candidate) => candidate.id === input.viewport);
  if (preset) return { width: preset.width, height: preset.height };
  const side = (field: 'width' | 'height', text: string): number => {
    const { min, max } = VIEWPORT_BOUNDS[field];
    const value = Number(text.trim());
    if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
      throw new AdvancedProblem(`The viewport ${field} is a whole number of pixels from ${count(min)} to ${count(max)}.`, { field });
    }
    return value;
  };
  const viewport = { width: side('width', input.customWidth), height: side('height', input.customHeight) };
  const most = Math.floor(MAX_CAPTURE_PIXELS / input.scale ** 2);
  if (viewport.width * viewport.height > most) {
    throw new AdvancedProblem(
      `Drawn at ${input.scale}× for a phone, a viewport has at most ${count(most)} pixels in all; ${viewport.width} × ${viewport.height} has ${count(viewport.width * viewport.height)}.`,
      { field: 'height' },
    );
  }
  return viewport;
}

/** Rows with a name; a row left wholly blank is no row. */
function filledRows(rows: readonly NameValue[], field: 'cookies' | 'headers'): { row: NameValue; index: number }[] {
  const kind = field === 'cookies' ? 'cookie' : 'header';
  const filled: { row: NameValue; index: number }[] = [];
  const seen = new Set<string>();
  rows.forEach((raw, index) => {
    const row = { name: raw.name.trim(), value: field === 'cookies' ? raw.value.trim() : raw.value };
    if (row.name === '' && row.value.trim() === '') return;
    const at = (part: 'name' | 'value') => ({ field, row: index, part });
    if (row.name === '') throw new AdvancedProblem(`The ${kind} in row ${index + 1} has a value but no name.`, at('name'));
    if (row.name.length > MAX_NAME_LENGTH || !TOKEN.test(row.name)) {
      throw new AdvancedProblem(
        `The ${kind} name in row ${index + 1} may have only letters, digits and !#$%&'*+-.^_\`|~, up to ${MAX_NAME_LENGTH}.`,
        at('name'),
      );
    }
    // Header names are case-insensitive; cookie names are not.
    const key = field === 'headers' ? row.name.toLowerCase() : row.name;
    if (seen.has(key)) throw new AdvancedProblem(`The ${kind} ${row.name} is listed twice.`, at('name'));
    seen.add(key);
    // A browser drops a cookie whose name and value together pass the bound.
    const length = row.value.length + (field === 'cookies' ? row.name.length : 0);
    if (length > MAX_VALUE_LENGTH) {
      throw new AdvancedProblem(
        `The ${field === 'cookies' ? 'name and value' : 'value'} of the ${kind} ${row.name} ${field === 'cookies' ? 'have' : 'has'} more than ${count(MAX_VALUE_LENGTH)} characters.`,
        at('value'),
      );
    }
    filled.push({ row, index });
  });
  return filled;
}

function cookiesOf(rows: readonly NameValue[]): NameValue[] {
  const filled = filledRows(rows, 'cookies');
  if (filled.length > MAX_COOKIES)
    throw new AdvancedProblem(`At most ${MAX_COOKIES} cookies can be sent; ${filled.length} are listed.`, {
      field: 'cookies',
      row: filled[MAX_COOKIES]!.index,
      part: 'name',
    });
  for (const { row, index } of filled) {
    if (!COOKIE_VALUE.test(row.value)) {
      throw new AdvancedProblem(`The value of the cookie ${row.name} has a space, quote, comma, semicolon or backslash; URL-encode it.`, {
        field: 'cookies',
        row: index,
        part: 'value',
      });
    }
  }
  return filled.map(({ row }) => row);
}

function headersOf(rows: readonly NameValue[]): Record<string, string> {
  const filled = filledRows(rows, 'headers');
  if (filled.length > MAX_HEADERS)
    throw new AdvancedProblem(`At most ${MAX_HEADERS} headers can be sent; ${filled.length} are listed.`, {
      field: 'headers',
      row: filled[MAX_HEADERS]!.index,
      part: 'name',
    });
  const headers: Record<string, string> = {};
  for (const { row, index } of filled) {
    if (row.name.toLowerCase() === 'cookie') {
      throw new AdvancedProblem('Cookies go under Cookies: paste the Cookie header there.', { field: 'headers', row: index, part: 'name' });
    }
    if (!HEADER_VALUE.test(row.value))
      throw new AdvancedProblem(`The value of the header ${row.name} has a line break or control character.`, { field: 'headers', row: index, part: 'value' });
    headers[row.name] = row.value;
  }
  return headers;
}

/** Headers and cookies within their total as sent ("Name: value" lines and one Cookie header), or the last row at fault named. */
function assertCredentialsFit(headers: Record<string, string>, cookies: NameValue[], input: AdvancedInput): void {
  const headerBytes = Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
  const cookieBytes = cookies.length === 0 ? 0 : cookies.reduce((sum, { name, value }) => sum + name.length + value.length + 3, 8);
  if (headerBytes + cookieBytes <= MAX_CREDENTIAL_BYTES) return;
  const field = headerBytes > MAX_CREDENTIAL_BYTES || cookies.length === 0 ? 'headers' : 'cookies';
  const rows = input[field];
  const last = rows.findLastIndex((row) => row.name.trim() !== '');
  throw new AdvancedProblem(
    `Headers and cookies together are at most ${count(MAX_CREDENTIAL_BYTES)} bytes as sent; these have ${count(headerBytes + cookieBytes)}.`,
    { field, row: last, part: 'value' },
  );
}

/**
 * The request fields the Advanced controls ask for, only those away from the API's defaults.
 * @throws AdvancedProblem naming the control at fault
 */
export function advancedFields(input: AdvancedInput): AdvancedFields {
  const fields: AdvancedFields = {};
  const viewport = viewportOf(input);
  if (viewport) fields.viewport = viewport;
  const cookies = cookiesOf(input.cookies);
  if (cookies.length > 0) fields.cookies = cookies;
  const headers = headersOf(input.headers);
  if (Object.keys(headers).length > 0) fields.headers = headers;
  assertCredentialsFit(headers, cookies, input);
  const userAgent = input.userAgent.trim();
  if (userAgent.length > MAX_USER_AGENT_LENGTH || CONTROL_CHARACTER.test(userAgent)) {
    throw new AdvancedProblem(`The user agent is one line of at most ${MAX_USER_AGENT_LENGTH} characters; this one has ${count(userAgent.length)}.`, {
      field: 'userAgent',
    });
  }
  if (userAgent !== '') fields.userAgent = userAgent;
  const click = input.click.trim();
  if (click !== '') fields.click = click;
  if (input.css.length > MAX_CSS_LENGTH)
    throw new AdvancedProblem(`The CSS has ${count(input.css.length)} characters; at most ${count(MAX_CSS_LENGTH)} can be sent.`, { field: 'css' });
  if (input.css.trim() !== '') fields.css = input.css;
  if (input.reducedMotion) fields.reducedMotion = true;
  return fields;
}

/**
 * The name=value pairs of a pasted `Cookie: a=1; b=2` header, with or without its name, one
 * header per line. A value in double quotes loses them, as a browser sends it; a part without
 * `=` is not a cookie and is left out.
 */
export function parseCookieHeader(text: string): NameValue[] {
  const cookies: NameValue[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const part of line.replace(/^\s*cookie\s*:/i, '').split(';')) {
      const equals = part.indexOf('=');
      if (equals < 0) continue;
      const name = part.slice(0, equals).trim();
      const value = part
        .slice(equals + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (name !== '') cookies.push({ name, value });
    }
  }
  return cookies;
}

/**
 * Rows after a paste: a pasted cookie replaces the row of the same name, the others are added
 * after the filled rows (blank rows give way to them).
 */
export function mergeRows(rows: readonly NameValue[], pasted: readonly NameValue[]): NameValue[] {
  const merged = rows.filter((row) => row.name.trim() !== '' || row.value.trim() !== '').map((row) => ({ ...row }));
  for (const cookie of pasted) {
    const existing = merged.find((row) => row.name.trim() === cookie.name);
    if (existing) existing.value = cookie.value;
    else merged.push({ ...cookie });
  }
  return merged;
}

/** What the editor keeps of a capture (in the Recent list and its IndexedDB record): the page and how it was framed, never what was sent to sign in. */
export function capturedSource(request: { deviceType: 'desktop' | 'mobile'; colorScheme: 'light' | 'dark'; viewport?: Viewport }, answeredUrl: string) {
  const framing = [request.deviceType, request.colorScheme, ...(request.viewport ? [`${request.viewport.width}×${request.viewport.height}`] : [])].join(', ');
  return {
    kind: 'capture' as const,
    density: request.deviceType === 'mobile' ? 2 : 1,
    title: answeredUrl.replace(/^https?:\/\//, ''),
    description: `capture of ${answeredUrl} (${framing})`,
    address: answeredUrl,
  };
}

/**
 * The framing of a capture reopened from the Recent list, read back from what {@link capturedSource}
 * kept, so it can be captured again the same way; the options sent to sign in were never kept.
 */
export function framingOf(kept: { address: string; description: string }): {
  url: string;
  deviceType: 'desktop' | 'mobile';
  colorScheme: 'light' | 'dark';
  viewport?: Viewport;
} {
  const parts = /\(([^()]*)\)$/.exec(kept.description)?.[1]?.split(', ') ?? [];
  const size = /^(\d+)×(\d+)$/.exec(parts[2] ?? '');
  return {
    url: kept.address,
    deviceType: parts[0] === 'mobile' ? 'mobile' : 'desktop',
    colorScheme: parts[1] === 'dark' ? 'dark' : 'light',
    ...(size ? { viewport: { width: Number(size[1]), height: Number(size[2]) } } : {}),
  };
}
