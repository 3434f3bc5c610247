/** Every error the API answers with; only the envelope middleware turns one into a response. */
import { SESSION_COOKIE } from '#shared/identity/principal.ts';

/** The contract's stable codes, with what the error reference page says about each. */
export const ERROR_CODES = {
  invalid_request: {
    statuses: [400, 408, 409, 413, 431],
    title: 'Invalid request',
    meaning:
      'The request is malformed: the body is not valid JSON or has the wrong content type, a required field is missing, an unknown field is present, a value has the wrong type or length, or the body is larger than the route accepts (413). On asset deletion, 409 means the asset is in use or not ready. The local server also answers requests it cannot read as HTTP with 400, headers it cannot hold with 431 and requests that arrive too slowly with 408.',
    resolve:
      'Read the hint: it names the field and the rule it broke. Send `Content-Type: application/json` with a body that matches the schema in /openapi.json; keep bodies under the documented size.',
  },
  invalid_url: {
    statuses: [400],
    title: 'Invalid URL',
    meaning:
      'A URL in the request is malformed, is not http(s), carries credentials, or points at a target the service refuses to reach (loopback, private, link-local or otherwise non-public addresses).',
    resolve: 'Send an absolute http:// or https:// URL of a publicly reachable host, without user:password@.',
  },
  unsupported_value: {
    statuses: [400],
    title: 'Unsupported value',
    meaning: 'A field holds a value outside its allowed set (for example a deviceType other than desktop or mobile).',
    resolve: 'Use one of the values the hint lists; /openapi.json gives every enum.',
  },
  unauthorized: {
    statuses: [401],
    title: 'Unauthorized',
    meaning: 'The operation needs credentials and none were sent, or the API key or session is unknown, revoked or expired.',
    resolve: `Workspace operations take an organization API key in \`X-API-Key\`; shell operations take the \`${SESSION_COOKIE}\` cookie. An \`Authorization\` header is not read.`,
  },
  forbidden: {
    statuses: [403],
    title: 'Forbidden',
    meaning:
      'The credentials are valid but do not allow this: the API key lacks the scope, the member lacks the permission, the organization is not the active one, or an API key was sent to a session-only route.',
    resolve: 'Use a key with the scope named in the hint, or ask an organization owner for the permission.',
  },
  forbidden_domain: {
    statuses: [403],
    title: 'Forbidden domain',
    meaning: 'The image proxy only fetches https URLs on its four allowlisted media hosts.',
    resolve: 'Pass an https URL on pbs.twimg.com, abs.twimg.com, ton.twimg.com or video.twimg.com.',
  },
  not_found: {
    statuses: [404],
    title: 'Not found',
    meaning:
      "No route has this path, or the resource (tweet, asset, organization) does not exist in this workspace. On a capture: no element matches the request's `selector` once the page is ready.",
    resolve:
      'Check the path against /openapi.json and the identifier against your workspace; for a capture, the selector against the page (or wait for it with `waitForSelector`).',
  },
  method_not_allowed: {
    statuses: [405],
    title: 'Method not allowed',
    meaning: 'The path exists but does not accept this HTTP method.',
    resolve: 'Use one of the methods in the `Allow` response header.',
  },
  rate_limited: {
    statuses: [429],
    title: 'Rate limited',
    meaning: 'The per-IP request rate of this route is used up for the current window (sign-in also counts codes asked for and tried per e-mail address).',
    resolve: 'Wait the number of seconds in `Retry-After` (also `retryAfter` in the body) before retrying.',
  },
  workspace_feature_not_entitled: {
    statuses: [403],
    title: 'Feature not entitled',
    meaning: "The workspace's plan does not include the feature this operation needs.",
    resolve: 'Upgrade to the plan named in `requiredPlan`; `currentPlan` and `feature` say what is missing.',
  },
  workspace_quota_exceeded: {
    statuses: [429],
    title: 'Workspace quota exceeded',
    meaning: "The workspace used up its plan's quota for this kind of operation in the current window.",
    resolve: 'Wait for the window to reset (`Retry-After`), or move to a plan with a larger `limit` for `quota`.',
  },
  upstream_timeout: {
    statuses: [408],
    title: 'Upstream timeout',
    meaning: 'The target page did not finish loading within the capture time-out, or no element matching `waitForSelector` became visible within it.',
    resolve: 'Retry later, or capture a lighter page.',
  },
  upstream_unavailable: {
    statuses: [503],
    title: 'Upstream unavailable',
    meaning: 'A dependency the operation needs (the capture browser, the database, storage or the queue) cannot be reached.',
    resolve: 'Retry with exponential back-off; the condition is temporary.',
  },
  upstream_failed: {
    statuses: [500, 502],
    title: 'Upstream failed',
    meaning: 'An outside service answered with an error or an unusable body: the capture failed, the tweet upstream failed, or a media host refused (502).',
    resolve: 'Retry later; if it persists, the upstream is refusing this resource.',
  },
  internal_error: {
    statuses: [500],
    title: 'Internal error',
    meaning: 'An unexpected error inside the service. It was logged with its cause.',
    resolve: 'Retry; if it keeps happening, report it with the time of the request.',
  },
} as const satisfies Record<string, { statuses: readonly number[]; title: string; meaning: string; resolve: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

/** Whose failure an answer reports: the service's (alarmed), a target the caller named, an outside service, or the caller's earlier request. */
export type FailureOrigin = 'service' | 'target' | 'upstream' | 'caller';

export interface HttpErrorOptions {
  status: number;
  code: ErrorCode;
  message: string;
  hint: string;
  /** Extra envelope fields (retryAfter, currentPlan, limit, …). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
  /** Default 'service': a failure nobody marked as outside is the service's. */
  origin?: FailureOrigin;
}

/** An error with a public status, code, message and hint. `cause` is logged, never returned. */
export class HttpError extends Error {
  override readonly name: string = 'HttpError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly hint: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly origin: FailureOrigin;

  constructor(options: HttpErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.hint = options.hint;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
    this.origin = options.origin ?? 'service';
  }
}

type Detail = { hint?: string; cause?: unknown };

export class InvalidRequestError extends HttpError {
  override readonly name: string = 'InvalidRequestError';
  constructor(message: string, hint: string, cause?: unknown) {
    super({ status: 400, code: 'invalid_request', message, hint, cause });
  }
}

export class InvalidUrlError extends HttpError {
  override readonly name: string = 'InvalidUrlError';
  constructor(message: string, hint = 'Send an absolute http:// or https:// URL of a publicly reachable host.', cause?: unknown) {
    super({ status: 400, code: 'invalid_url', message, hint, cause });
  }
}

export class UnsupportedValueError extends HttpError {
  override readonly name: string = 'UnsupportedValueError';
  constructor(message: string, hint: string) {
    super({ status: 400, code: 'unsupported_value', message, hint });
  }
}

export class PayloadTooLargeError extends HttpError {
  override readonly name: string = 'PayloadTooLargeError';
  constructor(limitBytes: number) {
    super({
      status: 413,
      code: 'invalid_request',
      message: 'Request body too large',
      hint: `Send a body of at most ${limitBytes} bytes.`,
      extra: { limit: limitBytes },
    });
  }
}

/** A request the local server could not read as HTTP/1.1; in the cloud API Gateway refuses these itself. */
export class UnreadableRequestError extends HttpError {
  override readonly name: string = 'UnreadableRequestError';
  constructor(status: 400 | 408 | 431, hint: string, cause?: unknown) {
    const message = status === 431 ? 'Request headers too large' : status === 408 ? 'Request timed out' : 'Malformed HTTP request';
    super({ status, code: 'invalid_request', message, hint, cause, headers: { Connection: 'close' } });
  }
}

export class ServerStartingError extends HttpError {
  override readonly name: string = 'ServerStartingError';
  constructor() {
    super({
      status: 503,
      code: 'upstream_unavailable',
      message: 'Service temporarily unavailable',
      hint: 'The server is starting; retry in a moment.',
      headers: { 'Retry-After': '1' },
    });
  }
}

/** 413 for content within the byte limit but too large to process or return (pixels, output size). */
export class ContentTooLargeError extends HttpError {
  override readonly name: string = 'ContentTooLargeError';
  constructor(message: string, hint: string, limit: number) {
    super({ status: 413, code: 'invalid_request', message, hint, extra: { limit } });
  }
}

export class ConflictError extends HttpError {
  override readonly name: string = 'ConflictError';
  constructor(message: string, hint: string) {
    super({ status: 409, code: 'invalid_request', message, hint });
  }
}

export class UnauthorizedError extends HttpError {
  override readonly name: string = 'UnauthorizedError';
  constructor(detail: Detail = {}) {
    super({
      status: 401,
      code: 'unauthorized',
      message: 'Authentication required',
      hint: detail.hint ?? 'Send an organization API key in X-API-Key, or sign in to get a session cookie.',
      cause: detail.cause,
    });
  }
}

export class ForbiddenError extends HttpError {
  override readonly name: string = 'ForbiddenError';
  constructor(hint: string, cause?: unknown) {
    super({ status: 403, code: 'forbidden', message: 'Forbidden', hint, cause });
  }
}

export class ForbiddenDomainError extends HttpError {
  override readonly name: string = 'ForbiddenDomainError';
  constructor(hint: string) {
    super({ status: 403, code: 'forbidden_domain', message: 'Host is not allowlisted', hint });
  }
}

export class NotFoundError extends HttpError {
  override readonly name: string = 'NotFoundError';
  constructor(message = 'Not found', hint = 'Check the path and identifier; /openapi.json lists every route.') {
    super({ status: 404, code: 'not_found', message, hint });
  }
}

export class MethodNotAllowedError extends HttpError {
  override readonly name: string = 'MethodNotAllowedError';
  constructor(method: string, allow: readonly string[]) {
    const list = allow.join(', ');
    super({
      status: 405,
      code: 'method_not_allowed',
      message: `Method ${method} not allowed`,
      hint: `This path accepts: ${list}.`,
      headers: { Allow: list },
    });
  }
}

export class RateLimitedError extends HttpError {
  override readonly name: string = 'RateLimitedError';
  /** `per` names what is counted: an IP address unless said otherwise (sign-in also counts per e-mail address). */
  constructor(options: { limit: number; windowSeconds: number; retryAfter: number; headers: Record<string, string>; per?: string }) {
    super({
      status: 429,
      code: 'rate_limited',
      message: 'Rate limit exceeded',
      hint: `Wait ${options.retryAfter} s before retrying: the limit is ${options.limit} requests per ${options.windowSeconds} s per ${options.per ?? 'IP address'}.`,
      extra: { retryAfter: options.retryAfter },
      headers: { ...options.headers, 'Retry-After': String(options.retryAfter) },
    });
  }
}

export class FeatureNotEntitledError extends HttpError {
  override readonly name: string = 'FeatureNotEntitledError';
  /** Plans and the feature by name: errors sit below identity/, which throws them. */
  constructor(options: { feature: string; currentPlan: string; requiredPlan: string }) {
    super({
      status: 403,
      code: 'workspace_feature_not_entitled',
      message: 'Feature not included in the workspace plan',
      hint: `The feature ${options.feature} needs the ${options.requiredPlan} plan or higher; this workspace is on ${options.currentPlan}.`,
      extra: { currentPlan: options.currentPlan, requiredPlan: options.requiredPlan, feature: options.feature },
    });
  }
}

export class QuotaExceededError extends HttpError {
  override readonly name: string = 'QuotaExceededError';
  /** `requested`: uses the refused request would have counted at once, when more than one. */
  constructor(options: { quota: string; limit: number; retryAfter: number; requested?: number }) {
    const many = options.requested !== undefined && options.requested > 1;
    super({
      status: 429,
      code: 'workspace_quota_exceeded',
      message: 'Workspace quota exceeded',
      hint: many
        ? `The ${options.quota} quota of ${options.limit} has fewer than the ${options.requested} this request needs left; ask for fewer, retry in ${options.retryAfter} s, or upgrade the plan.`
        : `The ${options.quota} quota of ${options.limit} is used up; retry in ${options.retryAfter} s or upgrade the plan.`,
      extra: { limit: options.limit, quota: options.quota },
      headers: { 'Retry-After': String(options.retryAfter) },
    });
  }
}

export class UpstreamTimeoutError extends HttpError {
  override readonly name: string = 'UpstreamTimeoutError';
  constructor(hint: string, cause?: unknown) {
    super({ status: 408, code: 'upstream_timeout', message: 'Upstream timed out', hint, cause });
  }
}

export class UpstreamUnavailableError extends HttpError {
  override readonly name: string = 'UpstreamUnavailableError';
  constructor(hint = 'A dependency is temporarily unavailable; retry with back-off.', cause?: unknown, origin?: FailureOrigin) {
    super({ status: 503, code: 'upstream_unavailable', message: 'Service temporarily unavailable', hint, cause, origin });
  }
}

/** The invocation's deadline passed first: 503 where the route's contract lists it, else 500. */
export class DeadlineExceededError extends HttpError {
  override readonly name: string = 'DeadlineExceededError';
  constructor(status: 500 | 503) {
    super({
      status,
      code: status === 503 ? 'upstream_unavailable' : 'internal_error',
      message: status === 503 ? 'Service temporarily unavailable' : 'Internal server error',
      hint: 'The request took longer than this route allows; retry later.',
    });
  }
}

export class UpstreamFailedError extends HttpError {
  override readonly name: string = 'UpstreamFailedError';
  constructor(options: { status?: 500 | 502; hint: string; cause?: unknown; extra?: Record<string, unknown>; origin?: FailureOrigin }) {
    super({ ...options, status: options.status ?? 500, code: 'upstream_failed', message: 'Upstream request failed' });
  }
}

export class InternalError extends HttpError {
  override readonly name: string = 'InternalError';
  constructor(cause?: unknown) {
    super({
      status: 500,
      code: 'internal_error',
      message: 'Internal server error',
      hint: 'Retry the request; if the error persists, report it with the time of the request.',
      cause,
    });
  }
}
