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
   * How long a container may reuse a verified API key or a member's role and organization
   * without reading the table again (ms, 0 to 10000). Revocations take effect within it.
   */
  authCacheTtlMs: number;
  /**
   * TEST ONLY. Loopback ports that outbound fetches (page capture, media proxy) may reach so tests
   * can serve targets on 127.0.0.1. Empty unless UNSAFE_TEST_LOOPBACK_PORTS is set; the CDK stack
   * never sets it. Every other non-public address stays refused even in tests.
   */
  unsafeTestLoopbackPorts: readonly number[];
}

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

/** An optional integer setting within bounds; out of bounds or not a number fails the cold start. */
function integerIn(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const text = optional(env, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${text}`);
  return value;
}

/** Revocations must take effect within ten seconds, so no container may trust a credential longer. */
export const MAX_AUTH_CACHE_TTL_MS = 10_000;

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
    authCacheTtlMs: integerIn(env, 'AUTH_CACHE_TTL_MS', 0, MAX_AUTH_CACHE_TTL_MS) ?? MAX_AUTH_CACHE_TTL_MS,
    unsafeTestLoopbackPorts: (optional(env, 'UNSAFE_TEST_LOOPBACK_PORTS') ?? '')
      .split(',')
      .filter(Boolean)
      .map((port) => {
        const value = Number(port.trim());
        if (!Number.isInteger(value) || value < 1 || value > 65_535) throw new Error(`UNSAFE_TEST_LOOPBACK_PORTS: not a port: ${port}`);
        return value;
      }),
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
