/**
 * HTTP calls to the local runtime from a chosen loopback source address. The runtime reports the
 * socket's peer as API Gateway's sourceIp, so each test can be its own client of the per-IP rate
 * limit (Linux routes all of 127.0.0.0/8 to the loopback interface).
 */
import { request as httpRequest } from 'node:http';

export interface ClientResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the response is JSON, else the text. */
  body: any;
  /** Epoch milliseconds when the request was sent and the response received: the server's clock read in between. */
  sentAt: number;
  receivedAt: number;
}

export interface CallOptions {
  method?: string;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Source address, e.g. 127.0.4.2. */
  from?: string;
}

let clients = 0;

/** A loopback address no other call of this process has used: a fresh rate-limit bucket. */
export function freshClient(): string {
  clients += 1;
  return `127.${100 + (clients >> 16)}.${(clients >> 8) & 255}.${clients & 255}`;
}

export function call(baseUrl: string, path: string, options: CallOptions = {}): Promise<ClientResponse> {
  const url = new URL(path, baseUrl);
  const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers };
  const sentAt = Date.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers,
        localAddress: options.from ?? freshClient(),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const type = String(res.headers['content-type'] ?? '');
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)])),
            body: type.includes('json') && text !== '' ? JSON.parse(text) : text,
            sentAt,
            receivedAt: Date.now(),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
