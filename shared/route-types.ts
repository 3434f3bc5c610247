import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import type { BucketName, QueueName, TableName } from '#shared/resources.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * none: anonymous; apiKey: X-API-Key or a session with the permission; session: cookie only; signIn: anonymous, cookie read
 * when sent, state changed from trusted origins only (login CSRF); internal: maintainer secret; webhook: a signed delivery.
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
  permission?: string;
  /** MB. */
  memory: number;
  /** Seconds. */
  timeout: number;
  access: ResourceAccess;
  /** Installed, not bundled: native binaries (sharp) and packages that read their own files (@sparticuz/chromium). */
  nodeModules?: readonly string[];
  // Shipped beside the bundle: the built editor (editor/build.ts), the pre-rendered pages (shared/docs/prerender-at-bundling.ts), the ad
  // engine and autoconsent (infra/assets/clean-capture.ts), the capture fonts (infra/assets/fonts.ts), Chromium zstd-packed (chromium.ts).
  editorAssets?: boolean;
  prerendered?: boolean;
  cleanCapture?: boolean;
  fonts?: boolean;
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

export interface RouteDef extends RouteRow, OperationDoc {}

export type LambdaEvent = APIGatewayProxyEventV2;
export type LambdaResult = APIGatewayProxyStructuredResultV2;
export type LambdaContext = Context;
