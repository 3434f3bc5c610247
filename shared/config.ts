/** Configuration, read once per container; a missing required variable fails the cold start by name. Each variable: docs/configuration.md. */
import type * as Fs from 'node:fs';
import { createRequire } from 'node:module';
import { MEDIA_HOSTS } from '#shared/net/media-hosts.ts';
import { BUCKETS, EXPRESS_CACHE } from '#shared/resources.ts';

// require(), not import: an ES import of node:fs evaluates its `promises` getter, loading fs/promises at cold start.
const { readFileSync } = createRequire(import.meta.url)('node:fs') as typeof Fs;

export interface Config {
  /** Public origin of the API, e.g. https://api.example.com (no trailing slash). */
  publicBaseUrl: string;
  /** Browser origins allowed to call cookie-authenticated routes with credentials. */
  editorOrigins: readonly string[];
  tables: { workspace: string; cache: string; rate: string };
  /** `cacheExpress`: the directory bucket for small cached PNGs, where the stack has one (resources.ts, EXPRESS_CACHE). */
  buckets: { assets: string; cache: string; cacheExpress?: string };
  queues: { deletion: string; mail: string; shots: string };
  /** Source apps' secrets (docs/shots.md, "Behind a login"); unset, a shot that needs a login fails saying so. */
  sourceSecrets?: { prefix: string } | { dir: string };
  /** Endpoint overrides for the embedded backends; undefined means the AWS default. */
  endpoints: { dynamodb?: string; s3?: string; sqs?: string };
  region: string;
  sdkTimeouts: { connectionTimeoutMs: number; requestTimeoutMs: number };
  /** How long (ms) a container may trust a verified key or membership without rereading: the revocation delay. */
  authCacheTtlMs: number;
  /** TEST ONLY (UNSAFE_TEST_LOOPBACK_PORTS): loopback ports outbound fetches may reach; other non-public addresses stay refused. */
  unsafeTestLoopbackPorts: readonly number[];
  capture: CaptureConfig;
  cacheTtlSeconds: number;
  /** The internal routes' secret: INTERNAL_SECRET itself or INTERNAL_SECRET_ARN; unset, internal routes refuse to start. */
  internalSecret?: { value: string } | { arn: string };
  tweets: TweetSettings;
  mediaProxy: MediaProxySettings;
  editor: EditorSettings;
  signIn: SignInSettings;
}

export interface SignInSettings {
  /** ALLOW_SIGN_UP: a verified address with no account or invitation gets one, with an organization on free. Default false: invitation only. */
  allowSignUp: boolean;
  sessionHours: number;
  /** Where codes are sent: SES from EMAIL_FROM, or the outbox file EMAIL_OUTBOX (local runs only); neither, and none are. */
  mail: { kind: 'ses'; from: string } | { kind: 'outbox'; file: string } | undefined;
  passkeys: { rpId: string; rpName: string; origins: readonly string[] };
}

export interface EditorSettings {
  /** API base URL the editor page calls (EDITOR_API_URL); undefined: the origin the page came from. */
  apiBaseUrl?: string;
  /** Folder of the built editor (EDITOR_ASSETS_DIR); undefined: `editor/` beside the function's bundle. */
  assetsDir?: string;
}

export interface TweetSettings {
  upstreamUrl: string;
  timeoutMs: number;
  cacheSeconds: number;
  staleSeconds: number;
}

export interface MediaProxySettings {
  /** Largest media body relayed, counted on the streamed bytes (MEDIA_PROXY_MAX_BYTES). */
  maxBytes: number;
  connectTimeoutMs: number;
  /** Longest wait for response headers and between two body chunks (MEDIA_PROXY_READ_TIMEOUT_MS). */
  readTimeoutMs: number;
  /** TEST ONLY: media hosts served from loopback, each port also in unsafeTestLoopbackPorts, so the connect-time address check runs. */
  unsafeTestHosts: ReadonlyMap<string, number>;
  /** TEST ONLY (UNSAFE_TEST_MEDIA_CA_FILE): CA trusted for the mapped hosts only; real hosts use the system store. */
  unsafeTestCa?: string;
}

export interface CaptureConfig {
  timeoutMs: number;
  /** CDP WebSocket URL of a remote browser (BROWSER_WS_ENDPOINT); undefined means the bundled Chromium. */
  remoteEndpoint?: string;
  chromiumPath?: string;
  /** Chromium's zstd pack (CHROMIUM_PACK), unpacked into the temporary folder at cold start; unset, @sparticuz/chromium unpacks its own brotli files. */
  chromiumPack?: string;
  /** The capture fonts' folder (FONTCONFIG_PATH), whose links are made before Chromium starts (font-links.ts). */
  fonts?: string;
  /** --single-process (default on Lambda, which needs it): no second context, so each capture's page is in the default one, wiped after. */
  singleProcess: boolean;
  prelaunch: Prelaunch;
  /** LOCAL RUNS ONLY (LOCAL_CAPTURE_PORTS): loopback ports a capture may reach, so `npm start` can capture itself. */
  localPorts: readonly number[];
}

/** The SDK waits without limit by default; these give up on a dead service well inside the shortest route time-out: callers get 503, not Lambda's time-out. */
export const SDK_LIMITS = {
  maxAttempts: 3,
  connectionTimeoutMs: 1_000,
  /** Until the response headers, a body's upload included. */
  requestTimeoutMs: 2_000,
  /** Longest silence while a response body streams. */
  socketTimeoutMs: 5_000,
} as const;
export const PRELAUNCH = ['none', 'launch', 'warm-up'] as const;
export type Prelaunch = (typeof PRELAUNCH)[number];

/** Lambda's default: a container made for provisioned concurrency has no request waiting on its init. */
function prelaunchOf(env: NodeJS.ProcessEnv): Prelaunch {
  const raw = optional(env, 'CAPTURE_PRELAUNCH');
  if (raw === undefined) {
    if (env.AWS_LAMBDA_FUNCTION_NAME === undefined) return 'none';
    return env.AWS_LAMBDA_INITIALIZATION_TYPE === 'provisioned-concurrency' ? 'warm-up' : 'launch';
  }
  if (!(PRELAUNCH as readonly string[]).includes(raw)) throw new Error(`CAPTURE_PRELAUNCH must be one of ${PRELAUNCH.join(', ')}, got ${raw}`);
  return raw as Prelaunch;
}

/** Bounds of the capture time-out: long enough for a real page, short enough to answer before API Gateway's 30 s. */
export const CAPTURE_TIMEOUT_BOUNDS = { min: 1_000, max: 25_000, default: 15_000 } as const;
/** Bounds of the cache lifetime: an entry may not outlive its object, which the cache bucket keeps at least a day. */
export const CACHE_TTL_BOUNDS = { min: 1, max: BUCKETS.cache.expireAfterDays * 86_400, default: 3_600 } as const;
/** Shortest accepted internal secret: a guessable one would make the constant-time comparison pointless. */
export const INTERNAL_SECRET_MIN_LENGTH = 32;

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value.trim();
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${raw}`);
  return value;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** Revocations must take effect within ten seconds, so no container may trust a credential longer. */
export const MAX_AUTH_CACHE_TTL_MS = 10_000;

function testMediaHosts(env: NodeJS.ProcessEnv, loopbackPorts: readonly number[]): Map<string, number> {
  const hosts = new Map<string, number>();
  const raw = optional(env, 'UNSAFE_TEST_MEDIA_HOSTS');
  if (raw === undefined) return hosts;
  for (const entry of raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^([a-z0-9.-]+)=127\.0\.0\.1:(\d{1,5})$/.exec(entry);
    // Refuse anything but a loopback target on an opted-in port: a typo must not reach another address.
    if (!match) throw new Error(`UNSAFE_TEST_MEDIA_HOSTS: expected host=127.0.0.1:port, got ${entry}`);
    const [, host, port] = match as unknown as [string, string, string];
    if (!(MEDIA_HOSTS as readonly string[]).includes(host)) throw new Error(`UNSAFE_TEST_MEDIA_HOSTS: ${host} is not an allowlisted media host`);
    if (!loopbackPorts.includes(Number(port))) throw new Error(`UNSAFE_TEST_MEDIA_HOSTS: port ${port} is not in UNSAFE_TEST_LOOPBACK_PORTS`);
    hosts.set(host, Number(port));
  }
  return hosts;
}

function ports(env: NodeJS.ProcessEnv, name: string): number[] {
  return (optional(env, name) ?? '')
    .split(',')
    .filter((port) => port.trim() !== '')
    .map((port) => {
      const value = Number(port.trim());
      if (!Number.isInteger(value) || value < 1 || value > 65_535) throw new Error(`${name}: not a port: ${port}`);
      return value;
    });
}

function bounded(env: NodeJS.ProcessEnv, name: string, bounds: { min: number; max: number; default: number }): number {
  return integer(env, name, bounds.default, bounds.min, bounds.max);
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
    timeoutMs: bounded(env, 'CAPTURE_TIMEOUT_MS', CAPTURE_TIMEOUT_BOUNDS),
    remoteEndpoint,
    chromiumPath: optional(env, 'CHROMIUM_PATH'),
    chromiumPack: optional(env, 'CHROMIUM_PACK'),
    fonts: optional(env, 'FONTCONFIG_PATH'),
    // Lambda sets AWS_LAMBDA_FUNCTION_NAME; that is where the multi-process model fails to start.
    singleProcess: boolean(env, 'CHROMIUM_SINGLE_PROCESS', env.AWS_LAMBDA_FUNCTION_NAME !== undefined),
    prelaunch: prelaunchOf(env),
    localPorts: ports(env, 'LOCAL_CAPTURE_PORTS'),
  };
}

function editorSettings(env: NodeJS.ProcessEnv): EditorSettings {
  const apiBaseUrl = optional(env, 'EDITOR_API_URL')?.replace(/\/+$/, '');
  if (apiBaseUrl !== undefined && !/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(apiBaseUrl)) {
    throw new Error(`EDITOR_API_URL must be an http(s) URL such as https://api.example.com, got ${apiBaseUrl}`);
  }
  return { apiBaseUrl, assetsDir: optional(env, 'EDITOR_ASSETS_DIR') };
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

export const SESSION_HOURS_BOUNDS = { min: 1, max: 720, default: 168 } as const;

const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/** Browsers refuse WebAuthn on an IP address: a loopback base URL gets `localhost` too. Default origins: the base URL's and editor's under the RP ID. */
function passkeySettings(env: NodeJS.ProcessEnv, publicBaseUrl: string, editorOrigins: readonly string[]): SignInSettings['passkeys'] {
  const base = new URL(publicBaseUrl);
  const loopback = IP_LITERAL.test(base.hostname) && (base.hostname.startsWith('127.') || base.hostname === '[::1]');
  const twin = loopback ? `${base.protocol}//localhost${base.port ? `:${base.port}` : ''}` : undefined;
  const rpId = optional(env, 'WEBAUTHN_RP_ID')?.toLowerCase() ?? (twin ? 'localhost' : base.hostname);
  if (IP_LITERAL.test(rpId) || !/^[a-z0-9.-]+$/.test(rpId))
    throw new Error(`WEBAUTHN_RP_ID must be a domain name such as example.com (browsers refuse IP addresses), got ${rpId}`);
  const under = (origin: string) => {
    const host = new URL(origin).hostname;
    return host === rpId || host.endsWith(`.${rpId}`);
  };
  const given = optional(env, 'WEBAUTHN_ORIGINS')
    ?.split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const origin of given ?? []) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin) || !under(origin)) throw new Error(`WEBAUTHN_ORIGINS: ${origin} is not an origin under ${rpId}`);
  }
  const origins = given ?? [publicBaseUrl, ...(twin ? [twin] : []), ...editorOrigins].filter(under);
  return { rpId, rpName: 'Easel', origins: [...new Set(origins)] };
}

function signInSettings(env: NodeJS.ProcessEnv, publicBaseUrl: string, editorOrigins: readonly string[]): SignInSettings {
  const from = optional(env, 'EMAIL_FROM');
  const outbox = optional(env, 'EMAIL_OUTBOX');
  if (from !== undefined && outbox !== undefined) throw new Error('Set EMAIL_FROM (SES) or EMAIL_OUTBOX (a local file), not both');
  if (from !== undefined && !/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/.test(from)) {
    throw new Error(`EMAIL_FROM must be an address such as no-reply@example.com or "Easel <no-reply@example.com>", got ${from}`);
  }
  return {
    allowSignUp: boolean(env, 'ALLOW_SIGN_UP', false),
    sessionHours: bounded(env, 'SESSION_HOURS', SESSION_HOURS_BOUNDS),
    mail: from !== undefined ? { kind: 'ses', from } : outbox !== undefined ? { kind: 'outbox', file: outbox } : undefined,
    passkeys: passkeySettings(env, publicBaseUrl, editorOrigins),
  };
}

function sourceSecrets(env: NodeJS.ProcessEnv): Config['sourceSecrets'] {
  const prefix = optional(env, 'SOURCE_SECRET_PREFIX');
  const dir = optional(env, 'LOCAL_SECRETS_DIR');
  if (prefix !== undefined && dir !== undefined) throw new Error('Set SOURCE_SECRET_PREFIX (Secrets Manager) or LOCAL_SECRETS_DIR (a folder), not both');
  if (prefix !== undefined && !/^[A-Za-z0-9/_+=.@-]+$/.test(prefix))
    throw new Error(`SOURCE_SECRET_PREFIX must be a secret name prefix (A–Z, a–z, 0–9, /_+=.@-), got ${prefix}`);
  return prefix !== undefined ? { prefix } : dir !== undefined ? { dir } : undefined;
}

/** Prefix of the settings that open holes for tests (loopback targets, stand-in media hosts, their CA). */
export const UNSAFE_TEST_PREFIX = 'UNSAFE_TEST_';
/** Settings that open a hole for local runs (`npm start`): loopback ports a capture may reach, sign-in codes in a file, secrets in a folder. */
export const LOCAL_ONLY_SETTINGS = ['LOCAL_CAPTURE_PORTS', 'EMAIL_OUTBOX', 'LOCAL_SECRETS_DIR'] as const;

/** Each of these weakens the SSRF guard or media TLS, so on Lambda one fails the cold start rather than serve with the hole open. */
function refuseOpeningsOnLambda(env: NodeJS.ProcessEnv): void {
  if (env.AWS_LAMBDA_FUNCTION_NAME === undefined) return;
  const names = Object.keys(env).sort();
  const kinds = [
    ['test-only', names.filter((name) => name.startsWith(UNSAFE_TEST_PREFIX))],
    ['local-only', names.filter((name) => (LOCAL_ONLY_SETTINGS as readonly string[]).includes(name))],
  ] as const;
  for (const [kind, present] of kinds) {
    if (present.length === 0) continue;
    throw new Error(
      `${present.join(', ')} ${present.length === 1 ? `is a ${kind} setting` : `are ${kind} settings`}, refused on AWS Lambda ` +
        `(AWS_LAMBDA_FUNCTION_NAME=${env.AWS_LAMBDA_FUNCTION_NAME}): remove ${present.length === 1 ? 'it' : 'them'} from the function's environment.`,
    );
  }
}

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  refuseOpeningsOnLambda(env);
  const publicBaseUrl = required(env, 'PUBLIC_BASE_URL').replace(/\/+$/, '');
  // Nothing HTML or JSON would escape: it is spliced verbatim into pre-rendered replies (docs/prerendered-replies.ts).
  if (!/^https?:\/\/[^/\s&<>"'\\]+$/.test(publicBaseUrl)) {
    throw new Error(`PUBLIC_BASE_URL must be an origin such as https://api.example.com, got ${publicBaseUrl}`);
  }
  const loopbackPorts = ports(env, 'UNSAFE_TEST_LOOPBACK_PORTS');
  const unsafeTestHosts = testMediaHosts(env, loopbackPorts);
  const unsafeTestCaFile = optional(env, 'UNSAFE_TEST_MEDIA_CA_FILE');
  if (unsafeTestCaFile !== undefined && unsafeTestHosts.size === 0) {
    throw new Error('UNSAFE_TEST_MEDIA_CA_FILE is only honoured together with UNSAFE_TEST_MEDIA_HOSTS');
  }
  const upstreamUrl = (optional(env, 'TWEET_UPSTREAM_URL') ?? 'https://cdn.syndication.twimg.com').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(upstreamUrl))
    throw new Error(`TWEET_UPSTREAM_URL must be an origin such as https://cdn.syndication.twimg.com, got ${upstreamUrl}`);
  const editorOrigins = (optional(env, 'EDITOR_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  return {
    publicBaseUrl,
    editorOrigins,
    tables: {
      workspace: required(env, 'WORKSPACE_TABLE'),
      cache: required(env, 'CACHE_TABLE'),
      rate: required(env, 'RATE_TABLE'),
    },
    buckets: {
      assets: required(env, 'ASSETS_BUCKET'),
      cache: required(env, 'CACHE_BUCKET'),
      cacheExpress: optional(env, EXPRESS_CACHE.env),
    },
    queues: { deletion: required(env, 'DELETION_QUEUE_URL'), mail: required(env, 'MAIL_QUEUE_URL'), shots: required(env, 'SHOT_QUEUE_URL') },
    sourceSecrets: sourceSecrets(env),
    endpoints: {
      dynamodb: optional(env, 'DYNAMODB_ENDPOINT'),
      s3: optional(env, 'S3_ENDPOINT'),
      sqs: optional(env, 'SQS_ENDPOINT'),
    },
    region: optional(env, 'AWS_REGION') ?? optional(env, 'AWS_DEFAULT_REGION') ?? required(env, 'AWS_REGION'),
    sdkTimeouts: {
      connectionTimeoutMs: integer(env, 'SDK_CONNECT_TIMEOUT_MS', SDK_LIMITS.connectionTimeoutMs, 100, 10_000),
      requestTimeoutMs: integer(env, 'SDK_REQUEST_TIMEOUT_MS', SDK_LIMITS.requestTimeoutMs, 500, 10_000),
    },
    authCacheTtlMs: integer(env, 'AUTH_CACHE_TTL_MS', MAX_AUTH_CACHE_TTL_MS, 0, MAX_AUTH_CACHE_TTL_MS),
    unsafeTestLoopbackPorts: loopbackPorts,
    tweets: {
      upstreamUrl,
      timeoutMs: integer(env, 'TWEET_TIMEOUT_MS', 4_000, 100, 60_000),
      cacheSeconds: integer(env, 'TWEET_CACHE_SECONDS', 300, 0, 86_400),
      staleSeconds: integer(env, 'TWEET_STALE_SECONDS', 3_600, 0, 604_800),
    },
    mediaProxy: {
      maxBytes: integer(env, 'MEDIA_PROXY_MAX_BYTES', 20 * 1024 * 1024, 1, 1024 * 1024 * 1024),
      connectTimeoutMs: integer(env, 'MEDIA_PROXY_CONNECT_TIMEOUT_MS', 3_000, 100, 60_000),
      readTimeoutMs: integer(env, 'MEDIA_PROXY_READ_TIMEOUT_MS', 10_000, 100, 120_000),
      unsafeTestHosts,
      unsafeTestCa: unsafeTestCaFile === undefined ? undefined : readFileSync(unsafeTestCaFile, 'utf8'),
    },
    capture: captureConfig(env),
    editor: editorSettings(env),
    cacheTtlSeconds: bounded(env, 'CACHE_TTL_SECONDS', CACHE_TTL_BOUNDS),
    internalSecret: internalSecret(env),
    signIn: signInSettings(env, publicBaseUrl, editorOrigins),
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
