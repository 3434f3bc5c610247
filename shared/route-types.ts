import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import type { BucketName, QueueName, TableName } from '#shared/resources.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * none: anonymous; apiKey: X-API-Key or a session with the permission; session: cookie only;
 * signIn: anonymous, reads the session cookie when sent, and a browser may change state only from a
 * trusted origin (login CSRF); internal: maintainer secret; webhook: a source app's delivery, signed over its
 * raw body with the app's webhook secret (no key or cookie counts).
 */
export type AuthKind = 'none' | 'apiKey' | 'session' | 'signIn' | 'internal' | 'webhook';
/** public: any origin, no credentials; editor: configured editor origins, with credentials. */
export type CorsPolicy = 'public' | 'editor';
/** DynamoDB actions a route may call on a table; Query also covers the table's indexes. */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'Scan';
/** GetObject also covers HeadObject, DeleteObject also DeleteObjects. */
export type ObjectAction = 'GetObject' | 'PutObject' | 'DeleteObject';

export type AnySchema = v.GenericSchema;

export interface BodySpec {
  /** multipart/form-data: the schema sees the fields, files as MultipartFile, repeated names as arrays. */
  contentType: 'application/json' | 'multipart/form-data';
  schema: AnySchema;
  optional?: boolean;
  /** Counted on the decoded bytes, before parsing; larger gets 413. */
  maxBytes: number;
  /** Media types accepted per file part, for the documents (OpenAPI `encoding`). */
  encoding?: Record<string, { contentType: string }>;
}

/** A file part of a multipart/form-data body, as the parser delivers it. */
export interface MultipartFile {
  /** Never used as a path. */
  filename: string;
  /** As the client declared it: unverified. */
  mimetype: string;
  encoding: string;
  content: Buffer;
}

export interface ResponseSpec {
  description: string;
  contentType?: string;
  schema?: AnySchema;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

/** What a route may touch, per action: the stack grants exactly this, and tests read it. */
export interface ResourceAccess {
  tables?: Partial<Record<TableName, readonly TableAction[]>>;
  /** Object actions per bucket, each limited to the listed key prefixes. */
  buckets?: Partial<Record<BucketName, Partial<Record<ObjectAction, readonly string[]>>>>;
  queues?: Partial<Record<QueueName, 'send'>>;
  /** UpdateItem of `lastUsedAt` on API-key items only; every `apiKey` row needs it. */
  apiKeyStamp?: true;
  /** GetSecretValue of the source apps' secrets, under the stack's name prefix only. */
  sourceSecrets?: true;
}

/** Where an operation is served; the fallback (404, 405, preflight) matches requests against these alone. */
export interface Endpoint {
  operationId: string;
  method: HttpMethod;
  /** API Gateway path template: /api/tweet/{id}. */
  path: string;
  cors: CorsPolicy;
}

/** One row of the route table: what the stack, the local server and the function read. */
export interface RouteRow extends Endpoint {
  /** Module, from the repository root, that exports `handler`. */
  handler: string;
  auth: AuthKind;
  /** Takes an Idempotency-Key and replays the first answer (shared/http/idempotency.ts). */
  idempotent?: true;
  /** API-key scope or session permission the route needs. */
  permission?: string;
  /** MB. */
  memory: number;
  /** Seconds. */
  timeout: number;
  access: ResourceAccess;
  /** Installed, not bundled: native binaries (sharp) and packages that read their own files (@sparticuz/chromium). */
  nodeModules?: readonly string[];
  /** Ship the built editor (editor/build.ts) beside the bundle. */
  editorAssets?: boolean;
  /** Ship the pre-rendered site pages (shared/docs/prerender-at-bundling.ts) beside the bundle. */
  prerendered?: boolean;
  /** Ship the ad engine and autoconsent (infra/assets/clean-capture.ts) beside the bundle. */
  cleanCapture?: boolean;
  /** Mount the capture fonts (infra/assets/fonts.ts) and point FONTCONFIG_PATH at them. */
  fonts?: boolean;
  /** Ship Chromium packed with zstd (infra/assets/chromium.ts) instead of @sparticuz/chromium's brotli files, and point CHROMIUM_PACK at it. */
  chromiumPack?: boolean;
  /** Listed in /openapi.json and the llms files. */
  listed: boolean;
  tag: string;
  params?: AnySchema;
  query?: AnySchema;
  headers?: AnySchema;
  body?: BodySpec;
  /** Status of a plain returned value (default 200); others come back as a Reply. */
  status?: number;
  errors: readonly number[];
  /** Methods the contract names on this path that always answer 405 (served by the fallback, documented). */
  refusedMethods?: readonly HttpMethod[];
  extensions?: Record<`x-${string}`, unknown>;
}

/** An operation's documentation (shared/docs/operations.ts), kept apart so only document functions bundle it. */
export interface OperationDoc {
  summary: string;
  description: string;
  responses: Record<number, ResponseSpec>;
}

/** A row with its documentation: what the OpenAPI document, the llms files and the pages read. */
export interface RouteDef extends RouteRow, OperationDoc {}

export type LambdaEvent = APIGatewayProxyEventV2;
export type LambdaResult = APIGatewayProxyStructuredResultV2;
export type LambdaContext = Context;
