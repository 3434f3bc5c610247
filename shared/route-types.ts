import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import type { BucketName, QueueName, TableName } from '#shared/resources.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** none: anonymous; apiKey: X-API-Key or a session with the permission; session: cookie only; internal: maintainer secret. */
export type AuthKind = 'none' | 'apiKey' | 'session' | 'internal';
/** public: any origin, no credentials; editor: configured editor origins, with credentials. */
export type CorsPolicy = 'public' | 'editor';
/**
 * The DynamoDB actions a route may call on a table. Query also covers the table's named indexes;
 * BatchGetItem is a read (the authenticator reads an organization and a membership in one).
 */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'Scan';
/** The S3 object actions a route may take. GetObject also covers HeadObject, DeleteObject also DeleteObjects. */
export type ObjectAction = 'GetObject' | 'PutObject' | 'DeleteObject';

// The schemas of a route are any valibot schema; object schemas for params, query and headers.
export type AnySchema = v.GenericSchema;

export interface BodySpec {
  /**
   * application/json: the schema sees the parsed JSON. multipart/form-data: the schema sees an
   * object of the form's fields, text parts as strings and file parts as MultipartFile (repeated
   * names as arrays).
   */
  contentType: 'application/json' | 'multipart/form-data';
  schema: AnySchema;
  /** The body may be absent (then the schema sees undefined). */
  optional?: boolean;
  /** Larger bodies get 413 (counted on the decoded bytes, before parsing). */
  maxBytes: number;
  /** multipart/form-data: media types accepted per file part, for the documents (OpenAPI `encoding`). */
  encoding?: Record<string, { contentType: string }>;
}

/** A file part of a multipart/form-data body, as the parser delivers it. */
export interface MultipartFile {
  /** File name the client sent (may be empty); never used as a path. */
  filename: string;
  /** Content-Type the client declared for the part; unverified. */
  mimetype: string;
  encoding: string;
  content: Buffer;
}

export interface ResponseSpec {
  description: string;
  /** JSON responses give a schema; other content types describe bytes or text. */
  contentType?: string;
  schema?: AnySchema;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

/**
 * What a route may touch, per action; the CDK stack grants exactly this and nothing more, and the
 * tests read it to know which backends a route needs.
 */
export interface ResourceAccess {
  /** The actions on each table (the whole table: items are not partitioned by route). */
  tables?: Partial<Record<TableName, readonly TableAction[]>>;
  /** The object actions on each bucket, each limited to the listed key prefixes (e.g. `uploads/`). */
  buckets?: Partial<Record<BucketName, Partial<Record<ObjectAction, readonly string[]>>>>;
  queues?: Partial<Record<QueueName, 'send'>>;
  /**
   * The authenticator's last-used stamp of an API key (`SET lastUsedAt`): UpdateItem on the
   * workspace table, only on API-key items and only that attribute. Every `apiKey` row needs it.
   */
  apiKeyStamp?: true;
}

/** Where an operation is served: what the fallback (404, 405, CORS preflight) matches a request against. */
export interface Endpoint {
  operationId: string;
  method: HttpMethod;
  /** API Gateway path template: /api/tweet/{id}. */
  path: string;
  cors: CorsPolicy;
}

/** One row of the route table (shared/routes/<resource>.ts, all of them in shared/routes.ts): what the stack, the local server and the function read. */
export interface RouteRow extends Endpoint {
  /** Module (relative to the repository root) that exports `handler`. */
  handler: string;
  auth: AuthKind;
  /** Scope of an API key, or permission of a session, that the route needs. */
  permission?: string;
  /** Lambda memory (MB) and timeout (s). */
  memory: number;
  timeout: number;
  access: ResourceAccess;
  /**
   * Packages installed into the function's bundle instead of being bundled by esbuild: native
   * binaries (sharp) and packages that ship files they read at run time (@sparticuz/chromium).
   */
  nodeModules?: readonly string[];
  /** Ship the built editor (editor/build.ts) in the function's asset, beside its bundle: the site routes that serve it. */
  editorAssets?: boolean;
  /** Ship the site pages pre-rendered (shared/docs/prerender-at-bundling.ts) in the function's asset: the routes that serve one (/, /docs, /docs/errors). */
  prerendered?: boolean;
  /** Listed in /openapi.json and the llms files; internal routes are not. */
  listed: boolean;
  tag: string;
  params?: AnySchema;
  query?: AnySchema;
  headers?: AnySchema;
  body?: BodySpec;
  /**
   * The status of a plain value the function returns; 200 when absent (a function that means
   * another returns a Reply with it). The lowest 2xx status the operation documents.
   */
  status?: number;
  /** Error statuses the route can answer with (documented with the envelope schema). */
  errors: readonly number[];
  /**
   * Other methods on this path that the contract names and that always answer 405 with `Allow`
   * (GET /api/screenshot): served by the fallback, published in /openapi.json with that response.
   */
  refusedMethods?: readonly HttpMethod[];
  /** OpenAPI vendor extensions on the operation. */
  extensions?: Record<`x-${string}`, unknown>;
}

/**
 * What the documents say about one operation (shared/docs/operations.ts, keyed by the row's
 * operation id): only the functions that serve the documents bundle it.
 */
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
