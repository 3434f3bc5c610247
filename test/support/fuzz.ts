/**
 * Hostile requests for every row of the route table, and what every answer must be whatever
 * was sent: the row's documented success, or the error envelope with a 4xx status and a code of
 * the contract; never a 5xx, never later than the route's time-out. Used by the property test in
 * `npm test` (test/integration/fuzz.test.ts) and by `npm run fuzz` (test/fuzz/main.ts).
 */
import { request as httpRequest } from 'node:http';
import * as fc from 'fast-check';
import { ERROR_CODE_LIST } from '#shared/errors.ts';
import { routeMatcher } from '#shared/http/match.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import { OPERATION_DOCS } from '#shared/docs/operations.ts';

type Row = (typeof ROUTE_LIST)[number];

const matchRoute = routeMatcher(ROUTE_LIST);

/** What the generators may use to get past the first checks (valid credentials, ids, targets). */
export interface FuzzContext {
  apiKey?: string;
  /** A whole `name=value` session cookie. */
  sessionCookie?: string;
  internalSecret?: string;
  organizationId?: string;
  /** http(s) origin of pages a capture may reach; absent: only URLs refused before any fetch. */
  pageOrigin?: string;
  /** Tweet ids the upstream knows; absent: no well-formed id is sent (the upstream is the internet). */
  tweetIds?: string[];
  /** Whether media URLs on the allowlisted hosts may be sent (a stand-in answers them). */
  mediaHosts?: boolean;
}

export interface FuzzRequest {
  /** The row the request was made for ('unmatched' for paths of no row). */
  target: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A valid 1×1 PNG, for file parts that should decode. */
const PNG_1x1 = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e25bb5460000000049454e44ae426082',
  'hex',
);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const printable = fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCXYZabcxyz[\\]^_`{|}~'.split('')), maxLength: 40 });
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'null',
    'true',
    '[]',
    '{}',
    '%',
    '%00',
    '%ff',
    '..',
    '../../etc/passwd',
    '<script>',
    '__proto__',
    'constructor',
    '😀',
  ),
  fc.integer({ min: 0, max: 9 }).map((power) => 'x'.repeat(Math.min(10 ** power, 60_000))),
);

/** A path segment: valid-looking, odd, or hostile; percent-encoded as a client would send it. */
const segment = (valid: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(valid.length > 0 ? valid : ['x'])) },
    { weight: 2, arbitrary: anyText.map((text) => encodeURIComponent(text).slice(0, 3000) || '%20') },
  );

const UUIDS = ['0198a1b2-0000-7000-8000-000000000000', '00000000-0000-0000-0000-000000000000'];

function pathFor(row: Row, context: FuzzContext): fc.Arbitrary<string> {
  const values: Record<string, string[]> = {
    assetId: UUIDS,
    organizationId: [context.organizationId ?? 'org_demo', 'org_other'],
    id: context.tweetIds ?? ['abc', '-1', '1.5'],
    file: ['editor.js', 'missing.css', '..%2f..%2fpackage.json'],
  };
  const names = [...row.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  // Without a tweet stand-in, a well-formed id would send the server to the real upstream.
  const offline = (name: string, value: string) => (name === 'id' && !context.tweetIds && /^\d+$/.test(value) ? `x${value}` : value);
  return fc
    .tuple(fc.tuple(...names.map((name) => segment(values[name] ?? []).map((value) => offline(name, value)))), fc.constantFrom('', '', '', '/', '//'))
    .map(([params, suffix]) => {
      let path = row.path;
      names.forEach((name, index) => {
        path = path.replace(`{${name}}`, params[index]!);
      });
      return `${path}${suffix}`;
    });
}

/** Capture targets: a local page when one is given, else only URLs refused before any fetch. */
function captureUrl(context: FuzzContext): fc.Arbitrary<unknown> {
  const refused = fc.constantFrom(
    'http://127.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:80/',
    'http://10.0.0.1/',
    'http://0.0.0.0/',
    'http://[::ffff:127.0.0.1]/',
    'ftp://example.com/',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'http://user:pass@example.com/',
    'not a url',
    'http://nothing.invalid/',
  );
  const local = context.pageOrigin ? [fc.constantFrom(`${context.pageOrigin}/plain?title=fuzz`, `${context.pageOrigin}/redirect?to=http://10.0.0.1/`)] : [];
  return fc.oneof(refused, ...local, anyText, fc.jsonValue({ maxDepth: 2 }));
}

function mediaUrl(context: FuzzContext): fc.Arbitrary<string> {
  const refused = fc.constantFrom(
    'http://pbs.twimg.com/media/x.jpg',
    'https://evil.example/x.jpg',
    'https://pbs.twimg.com.evil.example/x.jpg',
    'https://user@pbs.twimg.com/x',
    'https://pbs.twimg.com:8443/x',
    'javascript:alert(1)',
    '',
  );
  const allowed = context.mediaHosts
    ? [fc.constantFrom('https://pbs.twimg.com/media/fuzz.png', 'https://video.twimg.com/fuzz.mp4', 'https://pbs.twimg.com/media/fuzz.png#x')]
    : [];
  return fc.oneof(refused, ...allowed, anyText);
}

/** Values of the fields a row's JSON body names, and anything else. */
function jsonBody(context: FuzzContext): fc.Arbitrary<string | Buffer> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {
    url: captureUrl(context),
    deviceType: fc.oneof(fc.constantFrom('desktop', 'mobile', 'tablet'), fc.jsonValue({ maxDepth: 1 })),
    colorScheme: fc.oneof(fc.constantFrom('light', 'dark'), fc.jsonValue({ maxDepth: 1 })),
    forceRefresh: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    title: fc.oneof(anyText, fc.jsonValue({ maxDepth: 1 })),
    benefitStatement: anyText,
    description: fc.oneof(anyText, fc.constantFrom('<b>x</b>', 'a < b and c > d', '<!-- x -->')),
    sourceUrls: fc.oneof(fc.array(anyText, { maxLength: 30 }), fc.jsonValue({ maxDepth: 2 })),
    name: anyText,
    allowedHosts: fc.oneof(fc.array(fc.constantFrom('https://a.example', 'x', ''), { maxLength: 60 }), fc.jsonValue({ maxDepth: 2 })),
    bytes: fc.oneof(fc.integer({ min: -10, max: 60_000_000 }), fc.double(), fc.jsonValue({ maxDepth: 1 })),
    contentType: fc.oneof(fc.constantFrom('image/png', 'video/mp4', 'text/html', 'image/svg+xml'), anyText),
    fileName: anyText,
    sha256: fc.oneof(fc.stringMatching(/^[a-f0-9]{64}$/), anyText),
    all: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
  };
  const named = fc
    .dictionary(fc.oneof(fc.constantFrom(...Object.keys(fields)), fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra')), fc.constant(null), {
      maxKeys: 6,
    })
    .chain((keys) =>
      fc.record(
        Object.fromEntries(Object.keys(keys).map((key) => [key, Object.hasOwn(fields, key) ? fields[key]! : fc.jsonValue({ maxDepth: 2 })])) as Record<
          string,
          fc.Arbitrary<unknown>
        >,
      ),
    )
    .map((value) => JSON.stringify(value));
  const deep = fc.integer({ min: 10, max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth));
  const prototype = fc.constantFrom(
    '{"__proto__":{"admin":true},"title":"t","benefitStatement":"b"}',
    '{"constructor":{"prototype":{"x":1}}}',
    '{"url":"http://127.0.0.1/","__proto__":null}',
  );
  const invalidUtf8 = fc
    .uint8Array({ maxLength: 200 })
    .map((bytes) => Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(bytes), Buffer.from('"}')]));
  const huge = fc
    .integer({ min: 1, max: 200 })
    .map((kb) => JSON.stringify({ title: 'x'.repeat(kb * 1024), benefitStatement: 'b', url: `https://e.example/${'a'.repeat(kb)}` }));
  return fc.oneof(
    { weight: 5, arbitrary: named },
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'),
    deep,
    prototype,
    invalidUtf8,
    huge,
    anyText,
  );
}

const BOUNDARY = 'fuzzBoundary42';

/** A multipart form: well-formed, or broken in one of the ways a client can break it. */
const multipartBody: fc.Arbitrary<Buffer> = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.constantFrom('image', 'format', 'qualityPreset', '', '__proto__', 'x'.repeat(200)),
        fc.oneof(fc.constantFrom('png', 'jpeg', 'webp', 'gif', 'high', 'medium', 'low'), anyText),
        fc.boolean(),
        fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'text/html', ''),
      ),
      { maxLength: 30 },
    ),
    fc.constantFrom('whole', 'no-closing', 'cut', 'cut-header', 'other-boundary'),
    fc.nat(),
  )
  .map(([parts, shape, cut]) => {
    const chunks = parts.map(([name, value, file, type]) =>
      Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="f.png"' : ''}\r\n${file && type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
        ),
        file && value === 'png' ? PNG_1x1 : Buffer.from(value),
        Buffer.from('\r\n'),
      ]),
    );
    let body = Buffer.concat([...chunks, Buffer.from(shape === 'no-closing' ? '' : `--${BOUNDARY}--\r\n`)]);
    if (shape === 'cut') body = body.subarray(0, cut % (body.length + 1));
    if (shape === 'cut-header') body = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`);
    if (shape === 'other-boundary') body = Buffer.from(body.toString('latin1').replaceAll(BOUNDARY, 'elsewhere'), 'latin1');
    return body;
  });

function headersFor(row: Row | undefined, context: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const session = context.sessionCookie;
  const apiKey = fc.oneof(
    ...(context.apiKey ? [fc.constant(context.apiKey), fc.constant(`${context.apiKey.slice(0, -1)}x`)] : []),
    fc.constantFrom('easel_sk_', 'easel_sk_1111111111111111111111111111111', 'Bearer x', ''),
    printable,
  );
  const cookie = fc.oneof(
    ...(session
      ? [
          fc.constant(session),
          fc.constant(`${session}; ${session}`),
          fc.constant(`easel.session_token=easel_st_planted; ${session}`),
          fc.constant(`__Host-${session}`),
        ]
      : []),
    fc.constantFrom('easel.session_token=', 'easel.session_token=easel_st_x', '=;;;=', '__Secure-easel.session_token=a; easel.session_token=b'),
    printable,
  );
  const contentType = fc.oneof(
    fc.constant(row?.body?.contentType === 'multipart/form-data' ? `multipart/form-data; boundary=${BOUNDARY}` : 'application/json'),
    fc.constantFrom(
      'application/json',
      'application/vnd.x+json',
      'text/plain',
      'multipart/form-data',
      `multipart/form-data; boundary=${BOUNDARY}`,
      'multipart/form-data; boundary=',
      'application/x-www-form-urlencoded',
      '',
    ),
    printable,
  );
  return fc.record(
    {
      'content-type': contentType,
      'x-api-key': apiKey,
      cookie,
      'x-easel-internal-secret': fc.oneof(...(context.internalSecret ? [fc.constant(context.internalSecret)] : []), printable),
      'idempotency-key': fc.oneof(printable, fc.constant('k'.repeat(200))),
      origin: fc.constantFrom('https://evil.example', 'null', 'http://127.0.0.1:5173'),
      range: fc.constantFrom('bytes=0-10', 'bytes=-1', 'bytes=99999999-', 'items=1-2', 'bytes=0-1,2-3'),
      accept: fc.constantFrom('text/markdown', '*/*', 'application/json', 'image/webp'),
      'if-none-match': printable,
      authorization: printable,
      'x-forwarded-for': fc.constantFrom('1.2.3.4', '127.0.0.1, 10.0.0.1'),
    },
    { requiredKeys: [] },
  );
}

function queryFor(context: FuzzContext): fc.Arbitrary<string> {
  // Mostly short values: a query over the server's header limit only ever gets 431.
  const value = fc.oneof({ weight: 9, arbitrary: anyText.map((text) => text.slice(0, 200)) }, { weight: 1, arbitrary: anyText });
  const known = fc.record(
    {
      limit: fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), value),
      cursor: value,
      url: mediaUrl(context),
      q: value,
    },
    { requiredKeys: [] },
  );
  return fc
    .tuple(known, fc.dictionary(printable, value, { maxKeys: 4 }))
    .map(([fields, extra]) => new URLSearchParams({ ...extra, ...fields } as Record<string, string>).toString());
}

/** A body the row accepts, sometimes with one field of another type or an unknown field added. */
function validBody(row: Row, context: FuzzContext): fc.Arbitrary<Buffer | undefined> {
  const json = (value: fc.Arbitrary<Record<string, unknown>>) =>
    fc
      .tuple(value, fc.option(fc.tuple(fc.constantFrom('title', 'url', 'name', 'bytes', 'extra', 'all'), fc.jsonValue({ maxDepth: 1 })), { freq: 4 }))
      .map(([body, twist]) => Buffer.from(JSON.stringify(twist ? { ...body, [twist[0]]: twist[1] } : body)));
  const text = fc.string({ minLength: 1, maxLength: 60 });
  switch (row.operationId) {
    case 'capturePage':
      return json(
        fc.record(
          {
            url: context.pageOrigin
              ? fc.constantFrom(`${context.pageOrigin}/plain?title=fuzz`, `${context.pageOrigin}/scheme`, 'http://10.1.2.3/')
              : fc.constant('http://10.1.2.3/'),
            deviceType: fc.constantFrom('desktop', 'mobile'),
            colorScheme: fc.constantFrom('light', 'dark'),
            // Mostly from the cache: a new capture costs a browser page load.
            forceRefresh: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          },
          { requiredKeys: ['url'] },
        ),
      );
    case 'createRelease':
      return json(
        fc.record(
          { title: text, benefitStatement: text, description: fc.option(text, { nil: undefined }), sourceUrls: fc.constant(['https://a.example/x']) },
          { requiredKeys: ['title', 'benefitStatement'] },
        ),
      );
    case 'createSourceApp':
      return json(
        fc.record(
          { name: text, allowedHosts: fc.constant(['https://a.example']), provider: fc.constantFrom('generic', 'github') },
          { requiredKeys: ['name', 'allowedHosts'] },
        ),
      );
    case 'createAssetUpload':
      return json(fc.record({ bytes: fc.integer({ min: 1, max: 52_428_800 }), contentType: fc.constantFrom('image/png', 'video/mp4'), fileName: text }));
    case 'completeAssetUpload':
      return fc.oneof(fc.constant(undefined), json(fc.constant({})));
    case 'purgeCache':
      return json(fc.oneof(fc.constant({ all: true }), fc.constant({ url: 'https://example.com/' })));
    case 'postExport':
      return fc
        .tuple(fc.constantFrom('png', 'jpeg', 'webp'), fc.constantFrom('high', 'medium', 'low'))
        .map(([format, preset]) =>
          Buffer.concat([
            Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
            PNG_1x1,
            Buffer.from(
              `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="format"\r\n\r\n${format}\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="qualityPreset"\r\n\r\n${preset}\r\n--${BOUNDARY}--\r\n`,
            ),
          ]),
        );
    default:
      return fc.constant(undefined);
  }
}

/** The credentials and type a row expects, as a client that read the documents would send them. */
function wellFormedHeaders(row: Row, context: FuzzContext): Record<string, string> {
  const headers: Record<string, string> = {};
  if (row.body) headers['content-type'] = row.body.contentType === 'multipart/form-data' ? `multipart/form-data; boundary=${BOUNDARY}` : 'application/json';
  if (row.auth === 'apiKey' && context.apiKey) headers['x-api-key'] = context.apiKey;
  if (row.auth === 'session' && context.sessionCookie) headers.cookie = context.sessionCookie;
  if (row.auth === 'internal' && context.internalSecret) headers['x-easel-internal-secret'] = context.internalSecret;
  return headers;
}

/** One request for one row (or for no row at all). */
export function requestArbitrary(context: FuzzContext = {}): fc.Arbitrary<FuzzRequest> {
  // Requests a documented client would send, some slightly off: they reach the services' own checks and work.
  const wellFormed = fc.constantFrom(...ROUTE_LIST).chain((row) =>
    fc.tuple(pathFor(row, context), validBody(row, context), fc.option(queryFor(context), { freq: 3, nil: '' })).map(([path, body, query]) => ({
      target: row.operationId as string,
      method: row.method,
      path: query ? `${path}?${query}` : path,
      headers: wellFormedHeaders(row, context),
      body,
    })),
  );
  const forRow = fc.constantFrom(...ROUTE_LIST).chain((row) =>
    fc
      .record({
        method: fc.oneof({ weight: 8, arbitrary: fc.constant(row.method) }, { weight: 2, arbitrary: fc.constantFrom(...METHODS) }),
        path: pathFor(row, context),
        query: fc.oneof(fc.constant(''), queryFor(context)),
        headers: headersFor(row, context),
        body: fc.oneof(
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 4, arbitrary: row.body?.contentType === 'multipart/form-data' ? multipartBody : jsonBody(context) },
          { weight: 1, arbitrary: row.body?.contentType === 'multipart/form-data' ? jsonBody(context) : multipartBody },
        ),
      })
      .map(({ method, path, query, headers, body }) => ({
        target: row.operationId as string,
        method,
        path: query ? `${path}?${query}` : path,
        headers,
        body: body === undefined || method === 'GET' || method === 'HEAD' ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body),
      })),
  );
  const unmatched = fc
    .record({ path: fc.array(segment([]), { minLength: 1, maxLength: 5 }), method: fc.constantFrom(...METHODS), headers: headersFor(undefined, context) })
    .map(({ path, method, headers }) => ({ target: 'unmatched', method, path: `/${path.join('/')}`, headers }));
  return fc.oneof({ weight: 5, arbitrary: forRow }, { weight: 4, arbitrary: wellFormed }, { weight: 1, arbitrary: unmatched });
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

/** Sends one request over a fresh connection; rejects when the connection is lost or nothing comes back in time. */
export function send(baseUrl: string, request: FuzzRequest, options: { timeoutMs: number; localAddress?: string }): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers: { ...request.headers, ...(request.body ? { 'content-length': String(request.body.length) } : {}), connection: 'close' },
        localAddress: options.localAddress,
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, String(value)])),
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(request.body);
  });
}

/** The longest a request for this target may take: its route's time-out (Lambda's, which the boundary keeps). */
export function timeLimitMs(request: FuzzRequest): number {
  const row = ROUTE_LIST.find((candidate) => candidate.operationId === request.target);
  return (row?.timeout ?? FALLBACK.timeout) * 1000;
}

/**
 * Why an answer breaks the invariants, or undefined: a documented 2xx/3xx of the row the request
 * reached, or the envelope with a 4xx status and a contract code. Never a 5xx.
 */
export function violation(request: FuzzRequest, answer: FuzzAnswer): string | undefined {
  const where = `${request.method} ${request.path.slice(0, 120)} → ${answer.status}`;
  if (answer.status >= 500) return `${where}: a server error: ${answer.body.toString('utf8').slice(0, 300)}`;
  if (answer.status < 400) {
    const match = matchRoute(request.method, request.path.split('?')[0]!);
    if (match.kind === 'route' && String(answer.status) in OPERATION_DOCS[match.route.operationId].responses) return undefined;
    if (match.kind === 'method' && request.method === 'OPTIONS' && answer.status === 204) return undefined;
    return `${where}: a success the route table documents for no row this request reaches`;
  }
  if (request.method === 'HEAD') return undefined;
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return `${where}: an error that is not JSON: ${answer.body.toString('utf8').slice(0, 200)}`;
  }
  if (!ERROR_CODE_LIST.includes(envelope.code as never)) return `${where}: code ${String(envelope.code)} is not a contract code`;
  if (envelope.status !== answer.status) return `${where}: envelope status ${String(envelope.status)}`;
  for (const field of ['error', 'message', 'hint', 'documentation']) if (typeof envelope[field] !== 'string') return `${where}: envelope without ${field}`;
  return undefined;
}

/** Counts of answers by status and code, for the report. */
export class Tally {
  readonly counts = new Map<string, number>();
  total = 0;

  add(answer: FuzzAnswer | 'lost', method?: string): void {
    this.total += 1;
    let key = answer === 'lost' ? 'connection lost' : `${answer.status}${method === 'HEAD' ? ' (HEAD: no body)' : ''}`;
    if (answer !== 'lost' && answer.status >= 400 && answer.body.length > 0) {
      try {
        key += ` ${(JSON.parse(answer.body.toString('utf8')) as { code?: string }).code ?? ''}`;
      } catch {
        key += ' (not JSON)';
      }
    }
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  toString(): string {
    return [...this.counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, count]) => `${String(count).padStart(7)}  ${key}`)
      .join('\n');
  }
}
