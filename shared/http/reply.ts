/**
 * What handlers return. A plain value becomes a 200 JSON response; a Reply says status,
 * headers, cookies and body (JSON, text, or bytes sent base64 through API Gateway).
 */
const REPLY = Symbol('easel.reply');

export interface Reply {
  [REPLY]: true;
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body: { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'binary'; value: Uint8Array } | { kind: 'empty' };
}

type Extra = { headers?: Record<string, string>; cookies?: string[] };

function make(status: number, body: Reply['body'], extra: Extra = {}): Reply {
  return { [REPLY]: true, status, headers: extra.headers ?? {}, cookies: extra.cookies ?? [], body };
}

export const reply = {
  json: (value: unknown, status = 200, extra?: Extra) => make(status, { kind: 'json', value }, extra),
  text: (value: string, contentType: string, status = 200, extra?: Extra) =>
    make(status, { kind: 'text', value }, { ...extra, headers: { 'Content-Type': contentType, ...extra?.headers } }),
  binary: (value: Uint8Array, contentType: string, status = 200, extra?: Extra) =>
    make(status, { kind: 'binary', value }, { ...extra, headers: { 'Content-Type': contentType, ...extra?.headers } }),
  empty: (status = 204, extra?: Extra) => make(status, { kind: 'empty' }, extra),
};

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && REPLY in value;
}
