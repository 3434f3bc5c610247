/** The Markdown sections (authentication, operations, errors, limits) that /docs, /docs/errors and /llms-full.txt assemble their pages from. */
import { toEnvelope } from '#shared/http/envelope.ts';
import { ERROR_CODES, ERROR_CODE_LIST, FeatureNotEntitledError, InvalidUrlError, QuotaExceededError, RateLimitedError } from '#shared/errors.ts';
import type { ErrorCode, HttpError } from '#shared/errors.ts';
import type { AnySchema, ResponseSpec } from '#shared/route-types.ts';
import { EntitlementErrorEnvelope, ErrorEnvelope, QuotaErrorEnvelope, RateLimitErrorEnvelope } from '#shared/schemas/errors.ts';
import {
  API_KEY_HEADER,
  PAGES,
  SESSION_COOKIE,
  TOO_MANY_REQUESTS_HEADERS,
  absolute,
  authSentence,
  codesFor,
  describeRateLimit,
  describeValue,
  entitlementOf,
  errorStatuses,
  headerCase,
  rateLimitOf,
  reasonPhrase,
  tagsOf,
  tooManyRequestsKind,
} from '#shared/docs/catalog.ts';
import type { DocRoute } from '#shared/docs/catalog.ts';
import { curlExample } from '#shared/docs/examples.ts';
import { constraints, convert, deref, descriptionOf, isClosed, isSchema, properties, typeName } from '#shared/docs/json-schema.ts';
import type { Converted, JsonSchema } from '#shared/docs/json-schema.ts';
import { blocks, code, heading, table, text } from '#shared/docs/markdown.ts';

export function operationAnchor(row: DocRoute): string {
  return row.operationId;
}

/** The anchor of a tag's section on /docs. */
export function tagAnchor(tag: string): string {
  return `tag-${tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

function fence(language: string, content: string): string {
  const longest = Math.max(2, ...[...content.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${content}\n${marks}`;
}

/** How to authenticate, with the scopes and permissions the published operations use. */
export function authenticationSection(baseUrl: string, rows: readonly DocRoute[], depth: number): string {
  const scopes = [...new Set(rows.filter((row) => row.auth === 'apiKey' && row.permission).map((row) => row.permission!))];
  const permissions = [...new Set(rows.filter((row) => row.auth === 'session' && row.permission).map((row) => row.permission!))];
  const keyed = rows.find((row) => row.auth === 'apiKey');
  return blocks(
    heading(depth, 'Authentication', 'authentication'),
    rows.some((row) => row.auth === 'webhook')
      ? 'Each operation states which of four kinds of caller it accepts.'
      : 'Each operation states which of three kinds of caller it accepts.',
    [
      `- **Anonymous.** Utilities and discovery documents take no credentials. An \`Authorization\` header is never read, so it grants nothing anywhere in the API.`,
      `- **Organization API key.** Send \`${API_KEY_HEADER}: <API_KEY>\` on workspace operations; each names the scope the key must hold. No key, or an unknown or revoked one, gives 401 \`unauthorized\`; a key without the scope gives 403 \`forbidden\`. A browser with a signed-in session whose member holds the matching permission may call the same operations. A key in \`${API_KEY_HEADER}\` wins over the session: an empty or blank one is a key presented, and gives 401 even beside a valid session cookie.`,
      `- **Session cookie.** \`${SESSION_COOKIE}\`, issued by sign-in as \`__Host-${SESSION_COOKIE}\` over https (\`__Secure-${SESSION_COOKIE}\` is accepted there too). A \`__Host-\` cookie, which no other subdomain can set, decides alone; other session cookies that disagree are refused with 401 \`unauthorized\`. Shell operations accept only the session: a request carrying \`${API_KEY_HEADER}\` is refused with 403 \`forbidden\`.`,
      rows.some((row) => row.auth === 'webhook') &&
        `- **A source app's webhook.** A release intake address takes only the app's signature over the exact body, made with the \`webhookSecret\` of its secret: \`X-Hub-Signature-256\` (GitHub) or the Standard Webhooks headers. A missing or wrong one gives 401 \`unauthorized\`; keys and cookies count for nothing there.`,
    ]
      .filter(Boolean)
      .join('\n'),
    scopes.length > 0 && `API-key scopes in use: ${scopes.map(code).join(', ')}.`,
    permissions.length > 0 && `Session permissions in use: ${permissions.map(code).join(', ')}.`,
    'The server checks, where the operation needs them: workspace membership, role permission, API-key scope, plan feature and quota.',
    keyed && blocks('For example:', fence('sh', curlExample(baseUrl, keyed))),
  );
}

/** Every operation, grouped by tag: `depth` is the level of the section's own heading. */
export function operationsSection(baseUrl: string, rows: readonly DocRoute[], depth: number): string {
  return blocks(
    heading(depth, 'Operations', 'operations'),
    tagsOf(rows).map((tag) =>
      blocks(
        heading(depth + 1, text(tag.name), tagAnchor(tag.name)),
        tag.description,
        tag.routes.map((row) => operationBlock(baseUrl, row, depth + 2)),
      ),
    ),
  );
}

/** One operation: method and path, authentication, input, responses, errors, an example. */
export function operationBlock(baseUrl: string, row: DocRoute, depth: number): string {
  const facts = [`- **Authentication:** ${authSentence(row)}`];
  const rate = rateLimitOf(row);
  if (rate) facts.push(`- **Rate limit:** ${text(describeRateLimit(rate.value))}.`);
  const entitlement = entitlementOf(row);
  if (entitlement) facts.push(`- **Plan:** ${text(describeValue(entitlement.value))}.`);
  for (const [key, value] of Object.entries(row.extensions ?? {})) {
    if (key !== rate?.key && key !== entitlement?.key) facts.push(`- ${code(key)}: ${text(describeValue(value))}`);
  }
  return blocks(
    heading(depth, text(row.summary), operationAnchor(row)),
    `${code(`${row.method} ${row.path}`)} · operation ${code(row.operationId)}`,
    row.description,
    facts.join('\n'),
    parametersBlock(row),
    requestBodyBlock(row),
    responsesBlock(row),
    errorsBlock(baseUrl, row),
    blocks('**Example**', fence('sh', curlExample(baseUrl, row))),
  );
}

interface Field {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** Members of an object schema, nested ones named `parent.child` (`parent[].child` inside arrays). */
function fields(converted: Converted, schema: JsonSchema = converted.schema, prefix = '', depth = 0): Field[] {
  const out: Field[] = [];
  for (const member of properties(schema, converted.defs)) {
    const name = prefix ? `${prefix}.${member.name}` : member.name;
    out.push({ name, schema: member.schema, required: member.required });
    if (depth >= 2) continue;
    const inner = deref(member.schema, converted.defs);
    if (properties(inner, converted.defs).length > 0) out.push(...fields(converted, inner, name, depth + 1));
    else if (inner.type === 'array' && isSchema(inner.items) && properties(inner.items, converted.defs).length > 0) {
      out.push(...fields(converted, inner.items, `${name}[]`, depth + 1));
    }
  }
  return out;
}

/** The rules of a value as a Markdown table cell. */
function rules(schema: JsonSchema, defs: Record<string, JsonSchema>): string {
  return constraints(schema, defs)
    .map((rule) => (rule.literals ? `${text(rule.text)} ${rule.literals.map(code).join(', ')}` : text(rule.text)))
    .join('; ');
}

function fieldRow(field: Field, defs: Record<string, JsonSchema>, extra: string[] = []): string[] {
  return [
    code(field.name),
    ...extra,
    text(typeName(field.schema, defs)),
    field.required ? 'yes' : 'no',
    rules(field.schema, defs),
    text(descriptionOf(field.schema, defs) ?? ''),
  ];
}

function parametersBlock(row: DocRoute): string | undefined {
  const sources: [AnySchema | undefined, string][] = [
    [row.params, 'path'],
    [row.query, 'query'],
    [row.headers, 'header'],
  ];
  const rowsOut: string[][] = [];
  for (const [schema, location] of sources) {
    if (!schema) continue;
    const converted = convert(schema);
    for (const field of fields(converted)) {
      const name = location === 'header' ? headerCase(field.name) : field.name;
      rowsOut.push(fieldRow({ ...field, name, required: location === 'path' || field.required }, converted.defs, [location]));
    }
  }
  if (rowsOut.length === 0) return undefined;
  return blocks('**Parameters**', table(['Name', 'In', 'Type', 'Required', 'Rules', 'Description'], rowsOut));
}

function requestBodyBlock(row: DocRoute): string | undefined {
  if (!row.body) return undefined;
  const converted = convert(row.body.schema);
  const notes = [code(row.body.contentType), row.body.optional ? 'optional' : 'required', `at most ${row.body.maxBytes} bytes`];
  if (isClosed(converted.schema, converted.defs)) notes.push('fields not listed here are rejected');
  const members = fields(converted);
  return blocks(
    `**Request body** (${notes.join(', ')})`,
    members.length > 0
      ? table(
          ['Field', 'Type', 'Required', 'Rules', 'Description'],
          members.map((field) => fieldRow(field, converted.defs)),
        )
      : `Type: ${text(typeName(converted.schema, converted.defs))}.`,
  );
}

function responsesBlock(row: DocRoute): string {
  // Consecutive responses without a field table stay one tight list.
  const parts: string[] = [];
  let list: string[] = [];
  for (const [status, spec] of Object.entries(row.responses) as [string, ResponseSpec][]) {
    const type = spec.contentType ?? (spec.schema ? 'application/json' : undefined);
    const headers = Object.entries(spec.headers ?? {}).map(([name, header]) => `${code(name)} (${text(header.description)})`);
    list.push(`- ${code(status)}${type ? ` ${code(type)}` : ''}: ${spec.description}${headers.length > 0 ? ` Headers: ${headers.join(', ')}.` : ''}`);
    const converted = spec.schema ? convert(spec.schema) : undefined;
    const members = converted ? fields(converted) : [];
    if (converted && members.length > 0) {
      parts.push(
        list.join('\n'),
        table(
          ['Field', 'Type', 'Required', 'Rules', 'Description'],
          members.map((field) => fieldRow(field, converted.defs)),
        ),
      );
      list = [];
    }
  }
  return blocks('**Responses**', parts, list.join('\n'));
}

function codeLink(baseUrl: string, errorCode: ErrorCode): string {
  return `[${code(errorCode)}](${absolute(baseUrl, PAGES.errors)}#${errorCode})`;
}

function errorsBlock(baseUrl: string, row: DocRoute): string {
  const statuses = errorStatuses(row);
  const envelope = `[error envelope](${absolute(baseUrl, PAGES.errors)}#envelope)`;
  if (statuses.length === 0) return `**Errors:** any failure uses the ${envelope}.`;
  const rowsOut = statuses.map((status) => {
    const notes: string[] = [];
    if (status === 405) notes.push('`Allow` header lists the accepted methods');
    if (status === 429) notes.push(tooManyRequestsKind(row) === 'rate' ? 'rate limit envelope, `Retry-After`' : 'quota envelope, `Retry-After`');
    if (status === 403 && entitlementOf(row)) notes.push('entitlement envelope for `workspace_feature_not_entitled`');
    return [
      `${status} ${reasonPhrase(status)}`,
      codesFor(row, status)
        .map((errorCode) => codeLink(baseUrl, errorCode))
        .join(', '),
      notes.join('; '),
    ];
  });
  return blocks(`**Errors** (each with the ${envelope})`, table(['Status', 'Codes', 'Notes'], rowsOut));
}

const EXAMPLE_BASE_ERROR = new InvalidUrlError('Invalid URL in url');

/** The extended envelopes: when each is sent, the fields it adds, the headers that come with it. */
const EXTENDED_ENVELOPES: {
  id: string;
  title: string;
  schema: AnySchema;
  codes: ErrorCode[];
  when: string;
  headers?: Record<string, { description: string; type: string }>;
  example: HttpError;
}[] = [
  {
    id: 'rate-limit-envelope',
    title: 'Rate limit error',
    schema: RateLimitErrorEnvelope,
    codes: ['rate_limited'],
    when: 'Sent with 429 `rate_limited` when the per-IP limit of an anonymous route is used up.',
    headers: TOO_MANY_REQUESTS_HEADERS.rate,
    example: new RateLimitedError({ limit: 20, windowSeconds: 60, retryAfter: 42, headers: {} }),
  },
  {
    id: 'entitlement-envelope',
    title: 'Workspace entitlement error',
    schema: EntitlementErrorEnvelope,
    codes: ['workspace_feature_not_entitled'],
    when: "Sent with 403 `workspace_feature_not_entitled` when the workspace's plan lacks the feature the operation needs.",
    example: new FeatureNotEntitledError({ feature: 'asset:delete', currentPlan: 'free', requiredPlan: 'pro' }),
  },
  {
    id: 'quota-envelope',
    title: 'Workspace quota error',
    schema: QuotaErrorEnvelope,
    codes: ['workspace_quota_exceeded'],
    when: "Sent with 429 `workspace_quota_exceeded` when the workspace used up its plan's quota for the current window.",
    headers: TOO_MANY_REQUESTS_HEADERS.quota,
    example: new QuotaExceededError({ quota: 'api:write:minute', limit: 30, retryAfter: 20 }),
  },
];

// Meanings of extended fields whose schemas carry no description.
const FIELD_NOTES: Record<string, string> = {
  currentPlan: 'The plan the workspace is on.',
  requiredPlan: 'The lowest plan that includes the feature.',
  feature: 'The feature the operation needs.',
  limit: 'The allowance of the quota per window.',
  quota: 'The quota that is used up.',
};

function envelopeFields(converted: Converted, only?: (name: string) => boolean): string {
  const members = properties(converted.schema, converted.defs).filter((member) => !only || only(member.name));
  return table(
    ['Field', 'Type', 'Required', 'Rules', 'Meaning'],
    members.map((member) => [
      code(member.name),
      text(typeName(member.schema, converted.defs)),
      member.required ? 'yes' : 'no',
      member.name === 'code' ? 'one of the codes below' : rules(member.schema, converted.defs),
      text(descriptionOf(member.schema, converted.defs) ?? FIELD_NOTES[member.name] ?? ''),
    ]),
  );
}

function headerTable(headers: Record<string, { description: string; type: string }>): string {
  return table(
    ['Header', 'Type', 'Meaning'],
    Object.entries(headers).map(([name, header]) => [code(name), header.type, text(header.description)]),
  );
}

function exampleJson(baseUrl: string, error: HttpError): string {
  return fence('json', JSON.stringify(toEnvelope(error, baseUrl).body, null, 2));
}

/** The envelope every failure carries, and the extended envelopes, as sections at `depth`. */
export function envelopeSections(baseUrl: string, depth: number): string {
  const base = convert(ErrorEnvelope);
  const baseNames = new Set(properties(base.schema).map((member) => member.name));
  return blocks(
    heading(depth, 'The error envelope', 'envelope'),
    `Every failing response is JSON (\`Content-Type: application/json\`) with these fields. Branch on \`code\`, never on the message. \`documentation\` is \`${absolute(baseUrl, PAGES.errors)}#<code>\`.`,
    envelopeFields(base),
    'Example:',
    exampleJson(baseUrl, EXAMPLE_BASE_ERROR),
    heading(depth, 'Extended envelopes', 'extended-envelopes'),
    'Some errors add fields to the envelope; the base fields are always present.',
    EXTENDED_ENVELOPES.map((envelope) =>
      blocks(
        heading(depth + 1, envelope.title, envelope.id),
        envelope.when,
        envelopeFields(convert(envelope.schema), (name) => !baseNames.has(name)),
        envelope.headers && blocks('Response headers:', headerTable(envelope.headers)),
        'Example:',
        exampleJson(baseUrl, envelope.example),
      ),
    ),
    heading(depth + 1, 'Method not allowed', 'method-not-allowed'),
    'A 405 `method_not_allowed` carries the base envelope and an `Allow` header listing the methods the path accepts, comma-separated.',
  );
}

/** A table of every code with its statuses, each linking to its section of the error reference. */
export function errorCodesTable(baseUrl: string): string {
  return table(
    ['Code', 'HTTP status', 'Meaning'],
    ERROR_CODE_LIST.map((errorCode) => [codeLink(baseUrl, errorCode), ERROR_CODES[errorCode].statuses.join(', '), ERROR_CODES[errorCode].title]),
  );
}

/** One section per error code, with the code itself as the anchor the envelope links to. */
export function errorCodeSections(baseUrl: string, depth: number): string {
  return blocks(
    ERROR_CODE_LIST.map((errorCode) => {
      const entry = ERROR_CODES[errorCode];
      const extended = EXTENDED_ENVELOPES.find((envelope) => envelope.codes.includes(errorCode));
      return blocks(
        heading(depth, code(errorCode), errorCode),
        `**${entry.title}** · HTTP ${entry.statuses.join(', ')}`,
        entry.meaning,
        `**How to resolve:** ${entry.resolve}`,
        extended && `Body: the [${extended.title.toLowerCase()} envelope](${absolute(baseUrl, PAGES.errors)}#${extended.id}).`,
        errorCode === 'method_not_allowed' && 'Headers: `Allow`, the methods the path accepts.',
      );
    }),
  );
}

/** Every limit the table states: rate limits, quotas, body sizes and input-field bounds. */
export function limitsSection(rows: readonly DocRoute[], depth: number): string {
  const out: string[][] = [];
  for (const row of rows) {
    const where = code(`${row.method} ${row.path}`);
    const rate = rateLimitOf(row);
    if (rate) out.push(['Request rate', where, text(describeRateLimit(rate.value))]);
    const entitlement = entitlementOf(row);
    if (entitlement) out.push(['Plan and quota', where, text(describeValue(entitlement.value))]);
    if (row.body) out.push(['Request body size', where, `at most ${row.body.maxBytes} bytes`]);
    const inputs: [AnySchema | undefined, (name: string) => string][] = [
      [row.params, (name) => name],
      [row.query, (name) => name],
      [row.headers, headerCase],
      [row.body?.schema, (name) => name],
    ];
    for (const [schema, display] of inputs) {
      if (!schema) continue;
      const converted = convert(schema);
      for (const field of fields(converted)) {
        const bounds = constraints(field.schema, converted.defs).filter((rule) => ['length', 'range', 'items'].includes(rule.kind));
        if (bounds.length > 0) out.push([code(display(field.name)), where, text(bounds.map((rule) => rule.text).join('; '))]);
      }
    }
  }
  return blocks(
    heading(depth, 'Limits', 'limits'),
    out.length > 0 ? table(['Limit', 'Applies to', 'Value'], out) : 'No operation states a limit.',
    'A request over a rate limit or quota gets 429 with `Retry-After`; a body over its size gets 413 `invalid_request`; a field outside its bounds gets 400.',
  );
}
