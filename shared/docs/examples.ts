/** Example requests for the guide, derived from the same JSON Schemas as the OpenAPI document. */
import { API_KEY_HEADER, SESSION_COOKIE, absolute } from '#shared/docs/catalog.ts';
import type { DocRoute } from '#shared/docs/catalog.ts';
import { allowedValues, convert, deref, isSchema, properties } from '#shared/docs/json-schema.ts';
import type { JsonSchema } from '#shared/docs/json-schema.ts';

const SAMPLE_BY_FORMAT: Record<string, string> = {
  uri: 'https://example.com/',
  url: 'https://example.com/',
  email: 'user@example.com',
  uuid: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
};

/** A value the schema accepts, or a `<name>` placeholder when only a person can choose one (a pattern, say). */
export function sampleValue(schema: JsonSchema, defs: Record<string, JsonSchema>, name: string, depth = 0): unknown {
  const resolved = deref(schema, defs);
  if (depth > 4) return null;
  if ('default' in resolved) return resolved.default;
  if (Array.isArray(resolved.examples) && resolved.examples.length > 0) return resolved.examples[0];
  const values = allowedValues(resolved, defs);
  if (values && values.length > 0) return values[0];
  const options = resolved.anyOf ?? resolved.oneOf;
  if (Array.isArray(options)) {
    const first = options.filter(isSchema).find((option) => option.type !== 'null');
    return first ? sampleValue(first, defs, name, depth + 1) : null;
  }
  switch (resolved.type) {
    case 'object':
      return Object.fromEntries(
        properties(resolved, defs)
          .filter((member) => member.required)
          .map((member) => [member.name, sampleValue(member.schema, defs, member.name, depth + 1)]),
      );
    case 'array': {
      const min = typeof resolved.minItems === 'number' ? resolved.minItems : 0;
      const item = isSchema(resolved.items) ? sampleValue(resolved.items, defs, name, depth + 1) : null;
      return Array.from({ length: Math.max(min, 1) }, () => item);
    }
    case 'integer':
    case 'number':
      return typeof resolved.minimum === 'number' ? resolved.minimum : 1;
    case 'boolean':
      return true;
    case 'string': {
      if (typeof resolved.format === 'string' && SAMPLE_BY_FORMAT[resolved.format]) return SAMPLE_BY_FORMAT[resolved.format];
      if (typeof resolved.pattern === 'string') return `<${name}>`;
      const max = typeof resolved.maxLength === 'number' ? resolved.maxLength : Infinity;
      return 'example'.slice(0, Math.max(1, Math.min(7, max)));
    }
    default:
      return `<${name}>`;
  }
}

/** Quotes a word for a POSIX shell. */
function shell(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A curl command that calls the operation with its required input and the credentials it takes. */
export function curlExample(baseUrl: string, row: DocRoute): string {
  const params = row.params ? convert(row.params) : undefined;
  const paramValues = new Map(
    params ? properties(params.schema, params.defs).map((member) => [member.name, String(sampleValue(member.schema, params.defs, member.name))]) : [],
  );
  const path = row.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = paramValues.get(name);
    return value === undefined || value.startsWith('<') ? `<${name}>` : encodeURIComponent(value);
  });
  const query = row.query ? convert(row.query) : undefined;
  const search = new URLSearchParams();
  if (query) {
    for (const member of properties(query.schema, query.defs)) {
      if (member.required) search.set(member.name, String(sampleValue(member.schema, query.defs, member.name)));
    }
  }
  const url = absolute(baseUrl, path) + (search.size > 0 ? `?${search}` : '');
  const lines = [`curl${row.method === 'GET' ? '' : ` -X ${row.method}`} ${shell(url)}`];
  if (row.auth === 'apiKey') lines.push(`-H ${shell(`${API_KEY_HEADER}: <API_KEY>`)}`);
  if (row.auth === 'session') lines.push(`-b ${shell(`${SESSION_COOKIE}=<SESSION_TOKEN>`)}`);
  if (row.headers) {
    const headers = convert(row.headers);
    for (const member of properties(headers.schema, headers.defs)) {
      if (member.required) lines.push(`-H ${shell(`${member.name}: ${String(sampleValue(member.schema, headers.defs, member.name))}`)}`);
    }
  }
  if (row.body && !row.body.optional && row.body.contentType === 'multipart/form-data') {
    // File parts (binary strings) are read from a file with curl's @.
    const body = convert(row.body.schema);
    for (const member of properties(body.schema, body.defs).filter((item) => item.required)) {
      const file = typeof member.schema.contentMediaType === 'string';
      lines.push(`-F ${shell(`${member.name}=${file ? `@<${member.name} file>` : String(sampleValue(member.schema, body.defs, member.name))}`)}`);
    }
  } else if (row.body && !row.body.optional) {
    const body = convert(row.body.schema);
    lines.push(`-H ${shell(`Content-Type: ${row.body.contentType}`)}`);
    lines.push(`-d ${shell(JSON.stringify(sampleValue(body.schema, body.defs, 'body')))}`);
  }
  return lines.join(' \\\n  ');
}
