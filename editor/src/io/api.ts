/** The editor's API client: the right credentials per kind of route, and every failure as one {@link ApiError}. */

export interface Envelope {
  error: string;
  code: string;
  message: string;
  hint: string;
  status: number;
  documentation: string;
  retryAfter?: number;
}

/** A failed call: the envelope's fields, or a stand-in when the API could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string;
  readonly documentation?: string;
  /** Seconds, from Retry-After. */
  readonly retryAfter?: number;
  /** The route called, without the API base: what the user was doing. */
  readonly path?: string;
  /** The envelope's other fields (requiredPlan, quota, limit…). */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(fields: {
    status: number;
    code: string;
    message: string;
    hint: string;
    documentation?: string;
    retryAfter?: number;
    path?: string;
    extra?: Record<string, unknown>;
  }) {
    super(fields.message);
    this.name = 'ApiError';
    this.status = fields.status;
    this.code = fields.code;
    this.hint = fields.hint;
    this.documentation = fields.documentation;
    this.retryAfter = fields.retryAfter;
    this.path = fields.path;
    this.extra = fields.extra ?? {};
  }
}

/**
 * `public` sends none: its `Access-Control-Allow-Origin: *` cannot be combined with credentials.
 * `session`: the signed-in session's cookie. The page holds no API key: keys are for servers.
 */
export type Credentials = 'public' | 'session';

export interface CallOptions extends Omit<RequestInit, 'credentials'> {
  credentials?: Credentials;
}

function isEnvelope(value: unknown): value is Envelope {
  const candidate = value as Partial<Envelope> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.code === 'string' && typeof candidate.message === 'string';
}

function retryAfterOf(response: Response, body: Partial<Envelope>): number | undefined {
  const header = Number(response.headers.get('Retry-After'));
  if (Number.isFinite(header) && header > 0) return Math.ceil(header);
  return typeof body.retryAfter === 'number' ? body.retryAfter : undefined;
}

/** One per page, pointed at the configured API base. */
export class Api {
  /** Origin (and optional path) of the API, without a trailing slash; '' means this page's origin. */
  readonly base: string;

  constructor(base: string) {
    this.base = base.replace(/\/+$/, '');
  }

  /** From the `easel-api-base` meta element the server fills in. */
  static fromDocument(doc: Document): Api {
    const meta = doc.querySelector<HTMLMetaElement>('meta[name="easel-api-base"]');
    return new Api(meta?.content ?? '');
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  describe(): string {
    return this.base === '' ? 'this site' : this.base;
  }

  /** @throws ApiError for an error status or a network failure; DOMException AbortError when aborted */
  async call(path: string, options: CallOptions = {}): Promise<Response> {
    const { credentials = 'public', headers: given, ...init } = options;
    const headers = new Headers(given);
    let response: Response;
    try {
      response = await fetch(this.url(path), { ...init, headers, credentials: credentials === 'session' ? 'include' : 'same-origin' });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError({
        status: 0,
        code: 'network_error',
        path,
        message: `Could not reach the Easel API at ${this.describe()}.`,
        hint:
          this.base === ''
            ? 'Check your connection and try again.'
            : `Check your connection. The API must also allow this page's origin (${location.origin}) in its EDITOR_ORIGINS setting.`,
      });
    }
    if (response.ok) return response;
    const body: unknown = await response.json().catch(() => undefined);
    if (isEnvelope(body)) {
      throw new ApiError({
        status: response.status,
        code: body.code,
        message: body.message,
        hint: typeof body.hint === 'string' ? body.hint : '',
        documentation: typeof body.documentation === 'string' ? body.documentation : undefined,
        retryAfter: retryAfterOf(response, body),
        path,
        extra: body as unknown as Record<string, unknown>,
      });
    }
    throw new ApiError({
      status: response.status,
      code: 'unexpected_response',
      path,
      message: `The API answered ${response.status} ${response.statusText}`.trim(),
      hint: 'Something between the page and the API answered instead of Easel; try again later.',
    });
  }

  async json<T>(path: string, options: CallOptions = {}): Promise<T> {
    return (await (await this.call(path, options)).json()) as T;
  }
}
