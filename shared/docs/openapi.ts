/**
 * The OpenAPI 3.1 description, generated from the route table and the valibot schemas the
 * handlers validate with: it cannot list a route that does not exist or a rule that is not enforced.
 */
import { config } from '#shared/config.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { RECORD_SCHEMAS } from '#shared/docs/record-schemas.ts';
import { EntitlementErrorEnvelope, ErrorEnvelope, QuotaErrorEnvelope, RateLimitErrorEnvelope } from '#shared/schemas/errors.ts';
import type { AnySchema, ResponseSpec } from '#shared/route-types.ts';
import {
  ALLOW_HEADER,
  API_KEY_HEADER,
  API_VERSION,
  PAGES,
  PRODUCT,
  SESSION_COOKIE,
  SUMMARY,
  TOO_MANY_REQUESTS_HEADERS,
  absolute,
  authSentence,
  codesFor,
  entitlementOf,
  errorStatuses,
  headerCase,
  publicRoutes,
  reasonPhrase,
  tagsOf,
  tooManyRequestsKind,
} from '#shared/docs/catalog.ts';
import type { DocRoute } from '#shared/docs/catalog.ts';
import { convert, descriptionOf, properties, rewriteRefs } from '#shared/docs/json-schema.ts';
import type { JsonSchema } from '#shared/docs/json-schema.ts';

type Json = { [key: string]: unknown };

/** The generated document. Only the members callers read are typed; the rest is plain JSON. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; [key: string]: unknown };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    securitySchemes: Record<string, Json>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, Json>;
  };
  [key: string]: unknown;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  [extension: `x-${string}`]: unknown;
}

/** The envelope schemas, published under these names. */
export const ENVELOPE_SCHEMAS = {
  ErrorEnvelope,
  RateLimitErrorEnvelope,
  EntitlementErrorEnvelope,
  QuotaErrorEnvelope,
} as const;

const schemaRef = (name: keyof typeof ENVELOPE_SCHEMAS) => ({ $ref: `#/components/schemas/${name}` });

// Headers the OpenAPI specification says parameters must not describe, or that a security scheme already does.
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization', 'cookie', API_KEY_HEADER.toLowerCase()]);

/** The OpenAPI 3.1 document of every published row; `routes` defaults to the route table. */
export function buildOpenApi(publicBaseUrl: string, routes: readonly DocRoute[] = FULL_ROUTE_LIST): OpenApiDocument {
  // A later row for the same method and path replaces an earlier one, and so do the components it uses.
  const rows = [...new Map(publicRoutes(routes).map((row) => [`${row.method} ${row.path}`, row])).values()];
  const components = new Components();
  const paths: OpenApiDocument['paths'] = {};
  for (const row of rows) {
    const item = (paths[row.path] ??= {});
    item[row.method.toLowerCase()] = operation(row, components, publicBaseUrl);
    for (const method of row.refusedMethods ?? []) item[method.toLowerCase()] = refusedOperation(row, method, components, publicBaseUrl);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: PRODUCT,
      version: API_VERSION,
      summary: 'Screenshot editor backend: page capture, image export, tweet lookup, media proxy and workspace operations.',
      description: [
        SUMMARY,
        '',
        `Anonymous utilities and discovery documents need no credentials. Workspace operations take an organization API key in the \`${API_KEY_HEADER}\` header with the scope named on each operation; a browser with a signed-in session holding the matching permission may call them too. Shell operations take the \`${SESSION_COOKIE}\` session cookie only. An \`Authorization\` header is never read. Roles and the permissions they grant, plans with their features and quotas: [the API guide](${absolute(publicBaseUrl, PAGES.docs)}#roles-and-permissions).`,
        '',
        `Every failure is a JSON error envelope (\`error\`, \`code\`, \`message\`, \`hint\`, \`status\`, \`documentation\`); \`documentation\` links to [the error reference](${absolute(publicBaseUrl, PAGES.errors)}) at the anchor of the code.`,
      ].join('\n'),
      contact: { name: `${PRODUCT} API`, url: absolute(publicBaseUrl, PAGES.docs) },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    externalDocs: { description: 'API guide', url: absolute(publicBaseUrl, PAGES.docs) },
    servers: [{ url: publicBaseUrl, description: 'This deployment' }],
    tags: tagsOf(rows).map(({ name, description }) => ({ name, description })),
    paths,
    components: components.toJSON(),
  };
}

/** Builds the components section on demand, so the document names only what it uses (plus the envelopes). */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly responses: Record<string, Json> = {};

  constructor() {
    for (const [name, schema] of Object.entries(ENVELOPE_SCHEMAS)) this.schemas[name] = convert(schema).schema;
  }

  /**
   * The schema of a valibot schema. A record of RECORD_SCHEMAS, wherever it appears, is a `$ref`
   * to the component of its name; other local definitions become components named after the owner.
   */
  schema(schema: AnySchema, owner: string): JsonSchema {
    const converted = convert(schema, RECORD_SCHEMAS);
    const componentOf = (name: string) => (name in RECORD_SCHEMAS ? name : `${owner}.${name}`);
    const target = (name: string) => `#/components/schemas/${componentOf(name)}`;
    // The converter emits every definition it was given; only those this schema reaches are published.
    for (const name of reachedDefs(converted.schema, converted.defs))
      this.schemas[componentOf(name)] ??= rewriteRefs(converted.defs[name], target) as JsonSchema;
    return rewriteRefs(converted.schema, target) as JsonSchema;
  }

  /** A shared error response, added the first time an operation refers to it. */
  errorResponse(name: string, build: () => Json): Json {
    this.responses[name] ??= build();
    return { $ref: `#/components/responses/${name}` };
  }

  toJSON(): OpenApiDocument['components'] {
    return {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description: 'Organization API key. Each workspace operation names the scope the key must hold.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: `Session of a signed-in user. Over https it is issued as \`__Host-${SESSION_COOKIE}\`, which then decides alone (\`__Secure-${SESSION_COOKIE}\` is accepted too); session cookies carrying different tokens are refused with 401. Shell operations accept only this; workspace operations accept it when the member holds the matching permission.`,
        },
        githubSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Hub-Signature-256',
          description:
            "A source app of provider `github`: `sha256=` and the hex HMAC-SHA256 of the exact body under the `webhookSecret` of the app's secret, as GitHub sends it.",
        },
        standardWebhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'webhook-signature',
          description:
            "A source app of any other provider: Standard Webhooks' `v1,<base64 HMAC-SHA256 of webhook-id.webhook-timestamp.body>` under the `webhookSecret` (`whsec_` and base64), the timestamp within 5 minutes.",
        },
      },
      schemas: this.schemas,
      responses: this.responses,
    };
  }
}

/** The names of the local definitions a schema refers to, directly or through one another. */
function reachedDefs(schema: JsonSchema, defs: Record<string, JsonSchema>): Set<string> {
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, item] of Object.entries(value)) {
      const name = key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/') ? item.slice(8) : undefined;
      if (name === undefined) visit(item);
      else if (!reached.has(name)) {
        reached.add(name);
        visit(defs[name]);
      }
    }
  };
  visit(schema);
  return reached;
}

function operation(row: DocRoute, components: Components, publicBaseUrl: string): OpenApiOperation {
  // Members are added in the document's reading order.
  const op = {
    operationId: row.operationId,
    summary: row.summary,
    description: `${row.description}\n\n**Authentication:** ${authSentence(row)}`,
    tags: [row.tag],
    security: security(row),
  } as OpenApiOperation;
  const parameters = [
    ...pathParameters(row, components),
    ...inputParameters(row.query, 'query', row.operationId, components),
    ...inputParameters(row.headers, 'header', row.operationId, components),
  ];
  if (parameters.length > 0) op.parameters = parameters;
  if (row.body) {
    const media: Json = { schema: components.schema(row.body.schema, `${row.operationId}.body`) };
    if (row.body.encoding) media.encoding = row.body.encoding;
    op.requestBody = {
      description: `${row.body.contentType === 'multipart/form-data' ? 'Form (multipart/form-data)' : 'JSON'} body of at most ${row.body.maxBytes} bytes.`,
      required: !row.body.optional,
      content: { [row.body.contentType]: media },
    };
  }
  op.responses = {};
  for (const [status, spec] of Object.entries(row.responses)) {
    op.responses[status] = response(spec, components, `${row.operationId}.${status}`);
  }
  for (const status of errorStatuses(row)) op.responses[String(status)] = errorResponse(row, status, components, publicBaseUrl);
  // Ranges rather than `default`: any status the shared boundary answers with (an unexpected 500,
  // a 404 or 405 on the same path) still carries the envelope, and clients can branch on 4XX/5XX.
  op.responses['4XX'] = components.errorResponse('ClientError', () => ({
    description: 'Any other client error; the body is the error envelope.',
    content: { 'application/json': { schema: schemaRef('ErrorEnvelope') } },
  }));
  op.responses['5XX'] = components.errorResponse('ServerError', () => ({
    description: 'Any other server error, for example 500 `internal_error`; the body is the error envelope.',
    content: { 'application/json': { schema: schemaRef('ErrorEnvelope') } },
  }));
  if (row.permission) op['x-easel-permission'] = row.permission;
  Object.assign(op, row.extensions ?? {});
  return op;
}

/** A method the contract names on a row's path that always answers 405: its only response is that envelope. */
function refusedOperation(row: DocRoute, method: string, components: Components, publicBaseUrl: string): OpenApiOperation {
  return {
    operationId: `${row.operationId}Refuses${method[0]}${method.slice(1).toLowerCase()}`,
    summary: `${method} is not allowed`,
    description: `Always answers 405 \`method_not_allowed\` with the error envelope and \`Allow: ${row.method}\`. Use ${row.method} ${row.path} (${row.summary.toLowerCase()}).\n\n**Authentication:** none.`,
    tags: [row.tag],
    security: [],
    responses: { '405': errorResponse({ ...row, errors: [405] }, 405, components, publicBaseUrl) },
  } as OpenApiOperation;
}

function security(row: DocRoute): Record<string, string[]>[] {
  switch (row.auth) {
    case 'apiKey':
      return [{ apiKey: [] }, { sessionCookie: [] }];
    case 'session':
      return [{ sessionCookie: [] }];
    case 'webhook':
      return [{ githubSignature: [] }, { standardWebhookSignature: [] }];
    default:
      return [];
  }
}

function pathParameters(row: DocRoute, components: Components): Json[] {
  const declared = row.params ? parametersOf(row.params, 'path', row.operationId, components) : [];
  // OpenAPI requires every template variable to be declared; a row without a params schema still names them.
  const names = [...row.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const missing = names
    .filter((name) => !declared.some((parameter) => parameter.name === name))
    .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return [...declared.filter((parameter) => names.includes(parameter.name as string)), ...missing];
}

function inputParameters(schema: AnySchema | undefined, location: 'query' | 'header', owner: string, components: Components): Json[] {
  if (!schema) return [];
  return parametersOf(schema, location, owner, components).filter(
    (parameter) => location !== 'header' || !RESERVED_HEADERS.has(String(parameter.name).toLowerCase()),
  );
}

function parametersOf(schema: AnySchema, location: 'path' | 'query' | 'header', owner: string, components: Components): Json[] {
  const converted = components.schema(schema, `${owner}.${location}`);
  return properties(converted).map(({ name, schema: member, required }) => {
    const { description, ...rest } = member;
    const parameter: Json = {
      name: location === 'header' ? headerCase(name) : name,
      in: location,
      required: location === 'path' ? true : required,
    };
    const text = typeof description === 'string' ? description : descriptionOf(member);
    if (text) parameter.description = text;
    parameter.schema = rest;
    return parameter;
  });
}

function response(spec: ResponseSpec, components: Components, owner: string): Json {
  const out: Json = { description: spec.description };
  if (spec.headers) {
    out.headers = Object.fromEntries(
      Object.entries(spec.headers).map(([name, header]) => [name, { description: header.description, schema: { ...header.schema } }]),
    );
  }
  const types = (spec.contentType ?? (spec.schema ? 'application/json' : ''))
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  if (types.length > 0) {
    out.content = Object.fromEntries(types.map((type) => [type, mediaType(type, spec.schema, components, owner)]));
  }
  return out;
}

function mediaType(type: string, schema: AnySchema | undefined, components: Components, owner: string): Json {
  if (schema) return { schema: components.schema(schema, owner) };
  if (type.startsWith('text/')) return { schema: { type: 'string' } };
  // JSON the row gives no schema for, and raw bytes: OpenAPI 3.1 describes both by the media type alone.
  return {};
}

function errorResponse(row: DocRoute, status: number, components: Components, publicBaseUrl: string): Json {
  const reference = absolute(publicBaseUrl, PAGES.errors);
  const codes = codesFor(row, status);
  // A 3.1 reference may carry its own description: the shared response stays generic, this names the codes.
  const description = `${reasonPhrase(status)}${codes.length > 0 ? `: ${codes.map((code) => `\`${code}\``).join(', ')}` : ''}. See ${reference}${codes.length === 1 ? `#${codes[0]}` : ''}.`;
  const json = (schema: Json) => ({ 'application/json': { schema } });
  const headers = (set: Record<string, { description: string; type: string }>) =>
    Object.fromEntries(Object.entries(set).map(([name, { description: text, type }]) => [name, { description: text, schema: { type } }]));
  const shared = (name: string, build: () => Json) => ({ ...components.errorResponse(name, build), description });

  if (status === 429 && tooManyRequestsKind(row) === 'rate') {
    return shared('RateLimited', () => ({
      description: 'Too Many Requests: `rate_limited`, the per-IP limit of the route is used up.',
      headers: headers(TOO_MANY_REQUESTS_HEADERS.rate),
      content: json(schemaRef('RateLimitErrorEnvelope')),
    }));
  }
  if (status === 429) {
    return shared('QuotaExceeded', () => ({
      description: "Too Many Requests: `workspace_quota_exceeded`, the workspace plan's quota is used up.",
      headers: headers(TOO_MANY_REQUESTS_HEADERS.quota),
      content: json(schemaRef('QuotaErrorEnvelope')),
    }));
  }
  if (status === 403 && entitlementOf(row)) {
    return shared('ForbiddenOrNotEntitled', () => ({
      description: 'Forbidden; `workspace_feature_not_entitled` carries the extended entitlement envelope.',
      // anyOf, not oneOf: the base envelope is open, so an entitlement body matches both and oneOf would reject it.
      content: json({ anyOf: [schemaRef('ErrorEnvelope'), schemaRef('EntitlementErrorEnvelope')] }),
    }));
  }
  const phrase = reasonPhrase(status);
  const name = phrase.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase()) || `Error${status}`;
  return shared(name, () => ({
    description: `${phrase}; the body is the error envelope.`,
    ...(status === 405 ? { headers: headers(ALLOW_HEADER) } : {}),
    content: json(schemaRef('ErrorEnvelope')),
  }));
}

const cache = new Map<string, OpenApiDocument>();

/** The document of the route table for this origin, built once per container. */
export function openApiDocument(publicBaseUrl: string = config().publicBaseUrl): OpenApiDocument {
  let document = cache.get(publicBaseUrl);
  if (!document) {
    document = buildOpenApi(publicBaseUrl);
    cache.set(publicBaseUrl, document);
  }
  return document;
}
