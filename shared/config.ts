/**
 * Configuration, read once per container from the environment. A missing required variable
 * fails the cold start with a message naming it: there are no silent fallbacks.
 */
export interface Config {
  /** Public origin of the API, e.g. https://api.example.com (no trailing slash). */
  publicBaseUrl: string;
  /** Browser origins allowed to call cookie-authenticated routes with credentials. */
  editorOrigins: readonly string[];
  tables: { workspace: string; cache: string; rate: string };
  buckets: { assets: string; cache: string };
  queues: { deletion: string };
  /** Endpoint overrides for the embedded backends; undefined means the AWS default. */
  endpoints: { dynamodb?: string; s3?: string; sqs?: string };
  region: string;
  /**
   * TEST ONLY. Loopback ports that outbound fetches (page capture, media proxy) may reach so tests
   * can serve targets on 127.0.0.1. Empty unless UNSAFE_TEST_LOOPBACK_PORTS is set; the CDK stack
   * never sets it. Every other non-public address stays refused even in tests.
   */
  unsafeTestLoopbackPorts: readonly number[];
  /** Page capture (POST /api/screenshot). */
  capture: CaptureConfig;
  /** Lifetime of a cached capture, in seconds (CACHE_TTL_SECONDS). */
  cacheTtlSeconds: number;
  /**
   * Where the maintainers' shared secret of the internal routes comes from: the value itself
   * (INTERNAL_SECRET, local runs and tests) or a Secrets Manager secret read at cold start
   * (INTERNAL_SECRET_ARN, the cloud). Undefined when neither is set: internal routes then refuse to start.
   */
  internalSecret?: { value: string } | { arn: string };
}

export interface CaptureConfig {
  /** Milliseconds a capture may spend loading and photographing the page before it answers 408 (CAPTURE_TIMEOUT_MS). */
  timeoutMs: number;
  /** CDP WebSocket URL of a remote browser (BROWSER_WS_ENDPOINT); undefined means the bundled Chromium. */
  remoteEndpoint?: string;
  /** A Chromium binary to run instead of @sparticuz/chromium's (CHROMIUM_PATH), e.g. /usr/bin/chromium. */
  chromiumPath?: string;
  /**
   * Run Chromium with --single-process (CHROMIUM_SINGLE_PROCESS). @sparticuz/chromium needs it on
   * Lambda, where it is the default; there Chromium cannot open a second browser context, so each
   * capture gets a fresh page in the default context that is wiped afterwards instead of a fresh context.
   */
  singleProcess: boolean;
  /** Launch the browser during the cold start instead of on the first capture (on Lambda, whose init phase runs at full CPU). */
  prelaunch: boolean;
}

/** Bounds of the capture time-out: long enough for a real page, short enough to answer before API Gateway's 30 s. */
export const CAPTURE_TIMEOUT_BOUNDS = { min: 1_000, max: 25_000, default: 15_000 } as const;
/** Bounds of the cache lifetime: the cache bucket expires objects after 7 days, so an entry cannot outlive that. */
export const CACHE_TTL_BOUNDS = { min: 1, max: 7 * 86_400, default: 3_600 } as const;
/** Shortest accepted internal secret: a guessable one would make the constant-time comparison pointless. */
export const INTERNAL_SECRET_MIN_LENGTH = 32;

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value.trim();
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function integer(env: NodeJS.ProcessEnv, name: string, bounds: { min: number; max: number; default: number }): number {
  const raw = optional(env, name);
  if (raw === undefined) return bounds.default;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw new Error(`${name} must be an integer from ${bounds.min} to ${bounds.max}, got ${raw}`);
  }
  return value;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got ${raw}`);
}

function captureConfig(env: NodeJS.ProcessEnv): CaptureConfig {
  const remoteEndpoint = optional(env, 'BROWSER_WS_ENDPOINT');
  if (remoteEndpoint !== undefined && !/^wss?:\/\/[^/\s]+/.test(remoteEndpoint)) {
    throw new Error(`BROWSER_WS_ENDPOINT must be a ws:// or wss:// CDP endpoint, got ${remoteEndpoint}`);
  }
  return {
    timeoutMs: integer(env, 'CAPTURE_TIMEOUT_MS', CAPTURE_TIMEOUT_BOUNDS),
    remoteEndpoint,
    chromiumPath: optional(env, 'CHROMIUM_PATH'),
    // Lambda sets AWS_LAMBDA_FUNCTION_NAME; that is where the multi-process model fails to start.
    singleProcess: boolean(env, 'CHROMIUM_SINGLE_PROCESS', env.AWS_LAMBDA_FUNCTION_NAME !== undefined),
    prelaunch: env.AWS_LAMBDA_FUNCTION_NAME !== undefined,
  };
}

function internalSecret(env: NodeJS.ProcessEnv): Config['internalSecret'] {
  const value = env.INTERNAL_SECRET;
  const arn = optional(env, 'INTERNAL_SECRET_ARN');
  if (value !== undefined && value !== '') {
    if (value.length < INTERNAL_SECRET_MIN_LENGTH) throw new Error(`INTERNAL_SECRET must be at least ${INTERNAL_SECRET_MIN_LENGTH} characters`);
    return { value };
  }
  if (arn !== undefined) {
    if (!/^arn:aws[a-z-]*:secretsmanager:/.test(arn)) throw new Error(`INTERNAL_SECRET_ARN must be a Secrets Manager ARN, got ${arn}`);
    return { arn };
  }
  return undefined;
}

/** Parses the configuration from an environment; throws on the first missing variable. */
export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const publicBaseUrl = required(env, 'PUBLIC_BASE_URL').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(publicBaseUrl)) {
    throw new Error(`PUBLIC_BASE_URL must be an origin such as https://api.example.com, got ${publicBaseUrl}`);
  }
  return {
    publicBaseUrl,
    editorOrigins: (optional(env, 'EDITOR_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    tables: {
      workspace: required(env, 'WORKSPACE_TABLE'),
      cache: required(env, 'CACHE_TABLE'),
      rate: required(env, 'RATE_TABLE'),
    },
    buckets: {
      assets: required(env, 'ASSETS_BUCKET'),
      cache: required(env, 'CACHE_BUCKET'),
    },
    queues: { deletion: required(env, 'DELETION_QUEUE_URL') },
    endpoints: {
      dynamodb: optional(env, 'DYNAMODB_ENDPOINT'),
      s3: optional(env, 'S3_ENDPOINT'),
      sqs: optional(env, 'SQS_ENDPOINT'),
    },
    region: optional(env, 'AWS_REGION') ?? optional(env, 'AWS_DEFAULT_REGION') ?? required(env, 'AWS_REGION'),
    unsafeTestLoopbackPorts: (optional(env, 'UNSAFE_TEST_LOOPBACK_PORTS') ?? '')
      .split(',')
      .filter(Boolean)
      .map((port) => {
        const value = Number(port.trim());
        if (!Number.isInteger(value) || value < 1 || value > 65_535) throw new Error(`UNSAFE_TEST_LOOPBACK_PORTS: not a port: ${port}`);
        return value;
      }),
    capture: captureConfig(env),
    cacheTtlSeconds: integer(env, 'CACHE_TTL_SECONDS', CACHE_TTL_BOUNDS),
    internalSecret: internalSecret(env),
  };
}

let cached: Config | undefined;

/** The process-wide configuration, parsed on first use (at cold start, from the route factory). */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Forgets the parsed configuration; only the local runtime and tests call this after changing the environment. */
export function resetConfig(): void {
  cached = undefined;
}
