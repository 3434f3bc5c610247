/**
 * Valibot schemas as JSON Schema 2020-12. The OpenAPI document and the Markdown reference read
 * the same conversion, so what the docs say a field accepts is what the validator enforces.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { AnySchema } from '#shared/route-types.ts';
import { log, serializeError } from '#shared/log.ts';

/** A JSON Schema object, kept loose: the converter's output is walked, never trusted to a shape. */
export type JsonSchema = { [keyword: string]: unknown };

/** A converted schema with the local definitions its `$ref`s point at (`#/$defs/<name>`). */
export interface Converted {
  schema: JsonSchema;
  defs: Record<string, JsonSchema>;
}

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Each of `definitions` the schema contains becomes a `$ref`. A piece the converter cannot express
 * becomes `{}` (errorMode 'ignore') rather than failing the document at cold start; the validator still enforces it.
 */
export function convert(schema: AnySchema, definitions?: Record<string, AnySchema>): Converted {
  let raw: JsonSchema;
  try {
    raw = toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore', ...(definitions ? { definitions } : {}) }) as JsonSchema;
  } catch (error) {
    // One open schema beats no /openapi.json.
    log.warn('schema not convertible to JSON Schema', { error: serializeError(error) });
    raw = {};
  }
  const { $schema: _dialect, $defs, ...rest } = raw;
  const defs: Record<string, JsonSchema> = {};
  if (isSchema($defs)) {
    for (const [name, def] of Object.entries($defs)) if (isSchema(def)) defs[name] = normalize(def);
  }
  return { schema: normalize(rest), defs };
}

/** A query or header default is often the string ('50') of a piped number or boolean: coerced, or dropped if it would contradict the schema. */
function normalize(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (MAPS_OF_SCHEMAS.has(key) && isSchema(value)) {
      // A member may be called "default" or "type": the map itself is not a schema.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, isSchema(member) ? normalize(member) : member]));
    } else if (Array.isArray(value)) out[key] = value.map((item) => (isSchema(item) && key !== 'enum' ? normalize(item) : item));
    else if (isSchema(value) && key !== 'default' && key !== 'const' && key !== 'examples') out[key] = normalize(value);
    else out[key] = value;
  }
  // valibot emits `required: []` for objects without required members; it says nothing.
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  if ('default' in out) {
    const coerced = coerceDefault(out.type, out.default);
    if (coerced === undefined) delete out.default;
    else out.default = coerced.value;
  }
  return out;
}

const MAPS_OF_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

function coerceDefault(type: unknown, value: unknown): { value: unknown } | undefined {
  if (type === 'integer' || type === 'number') {
    if (typeof value === 'number') return { value };
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(number) || (type === 'integer' && !Number.isInteger(number))) return undefined;
    return { value: number };
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return { value };
    return value === 'true' ? { value: true } : value === 'false' ? { value: false } : undefined;
  }
  if (type === 'string') return typeof value === 'string' ? { value } : undefined;
  return { value };
}

/** Follows a local `#/$defs/<name>` reference, once. */
export function deref(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
  return defs[ref.slice('#/$defs/'.length)] ?? {};
}

/** Returns a copy with every `#/$defs/<name>` reference pointing at `<prefix><name>`, or where `target(name)` says. */
export function rewriteRefs(value: unknown, prefix: string | ((name: string) => string)): unknown {
  const target = typeof prefix === 'string' ? (name: string) => prefix + name : prefix;
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, target));
  if (!isSchema(value)) return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/') ? target(item.slice(8)) : rewriteRefs(item, target);
  }
  return out;
}

export interface Property {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** The members of an object schema (or of the object inside a nullable/union wrapper), in declaration order. */
export function properties(schema: JsonSchema, defs: Record<string, JsonSchema> = {}): Property[] {
  const resolved = objectOf(deref(schema, defs), defs);
  if (!resolved || !isSchema(resolved.properties)) return [];
  const required = new Set(Array.isArray(resolved.required) ? resolved.required.filter((item) => typeof item === 'string') : []);
  return Object.entries(resolved.properties)
    .filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]))
    .map(([name, member]) => ({ name, schema: member, required: required.has(name) }));
}

function objectOf(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema | undefined {
  if (schema.type === 'object' || isSchema(schema.properties)) return schema;
  const options = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(options)) return undefined;
  const objects = options
    .filter(isSchema)
    .map((option) => deref(option, defs))
    .filter((option) => option.type === 'object');
  return objects.length === 1 ? objects[0] : undefined;
}

/** Whether an object schema refuses members it does not declare. */
export function isClosed(schema: JsonSchema, defs: Record<string, JsonSchema> = {}): boolean {
  return objectOf(deref(schema, defs), defs)?.additionalProperties === false;
}

/** A short human name of a schema's type: 'string (uri)', 'array of integer', 'string or null'. */
export function typeName(schema: JsonSchema, defs: Record<string, JsonSchema> = {}, depth = 0): string {
  const resolved = deref(schema, defs);
  if (depth > 4) return 'any';
  if ('const' in resolved) return typeof resolved.const === 'string' ? 'string' : resolved.const === null ? 'null' : typeof resolved.const;
  const options = resolved.anyOf ?? resolved.oneOf;
  if (Array.isArray(options)) {
    const names = [...new Set(options.filter(isSchema).map((option) => typeName(option, defs, depth + 1)))];
    return names.join(' or ');
  }
  const type = Array.isArray(resolved.type) ? resolved.type.join(' or ') : typeof resolved.type === 'string' ? resolved.type : undefined;
  if (type === 'array') return isSchema(resolved.items) ? `array of ${typeName(resolved.items, defs, depth + 1)}` : 'array';
  if (type === undefined) return Array.isArray(resolved.enum) ? 'string' : 'any';
  const format = typeof resolved.format === 'string' ? resolved.format : typeof resolved.contentMediaType === 'string' ? resolved.contentMediaType : undefined;
  return format ? `${type} (${format})` : type;
}

/** The allowed values of an enum-like schema (enum, const or a union of consts), if it is one. */
export function allowedValues(schema: JsonSchema, defs: Record<string, JsonSchema> = {}): unknown[] | undefined {
  const resolved = deref(schema, defs);
  if (Array.isArray(resolved.enum)) return resolved.enum;
  if ('const' in resolved) return [resolved.const];
  const options = resolved.anyOf ?? resolved.oneOf;
  if (!Array.isArray(options) || options.length === 0) return undefined;
  const values: unknown[] = [];
  for (const option of options) {
    if (!isSchema(option)) return undefined;
    const inner = allowedValues(option, defs);
    if (!inner) return undefined;
    values.push(...inner);
  }
  return values;
}

/** A rule a value must satisfy, as a plain-text phrase; the caller formats it for its medium. */
export interface Constraint {
  kind: 'length' | 'range' | 'items' | 'pattern' | 'values' | 'default' | 'unique';
  text: string;
  /** The literals the phrase refers to (the pattern, each allowed value, the default), for code formatting. */
  literals?: string[];
}

export function constraints(schema: JsonSchema, defs: Record<string, JsonSchema> = {}): Constraint[] {
  const resolved = deref(schema, defs);
  const out: Constraint[] = [];
  const num = (key: string) => (typeof resolved[key] === 'number' ? (resolved[key] as number) : undefined);
  const bounds = (min: number | undefined, max: number | undefined, unit: string) =>
    min !== undefined && max !== undefined
      ? min === max
        ? `exactly ${min}${unit}`
        : `${min} to ${max}${unit}`
      : min !== undefined
        ? `at least ${min}${unit}`
        : max !== undefined
          ? `at most ${max}${unit}`
          : undefined;
  const length = bounds(num('minLength'), num('maxLength'), ' characters');
  if (length) out.push({ kind: 'length', text: `length ${length}` });
  const low = num('minimum') ?? num('exclusiveMinimum');
  const high = num('maximum') ?? num('exclusiveMaximum');
  if (num('exclusiveMinimum') !== undefined || num('exclusiveMaximum') !== undefined) {
    const parts = [
      low !== undefined ? `${num('exclusiveMinimum') !== undefined ? '>' : '≥'} ${low}` : undefined,
      high !== undefined ? `${num('exclusiveMaximum') !== undefined ? '<' : '≤'} ${high}` : undefined,
    ].filter(Boolean);
    out.push({ kind: 'range', text: parts.join(' and ') });
  } else {
    const range = bounds(low, high, '');
    if (range) out.push({ kind: 'range', text: range });
  }
  const items = bounds(num('minItems'), num('maxItems'), ' items');
  if (items) out.push({ kind: 'items', text: items });
  if (resolved.uniqueItems === true) out.push({ kind: 'unique', text: 'items unique' });
  if (typeof resolved.pattern === 'string') out.push({ kind: 'pattern', text: 'pattern', literals: [resolved.pattern] });
  const values = allowedValues(resolved, defs);
  if (values && values.length > 0) out.push({ kind: 'values', text: 'one of', literals: values.map(literal) });
  if ('default' in resolved) out.push({ kind: 'default', text: 'default', literals: [literal(resolved.default)] });
  if (resolved.type === 'array' && isSchema(resolved.items)) {
    for (const inner of constraints(resolved.items, defs)) {
      if (inner.kind !== 'default') out.push({ ...inner, text: `each item: ${inner.text}` });
    }
  }
  return out;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
}

/** The description a schema carries (valibot's `v.description`), if any. */
export function descriptionOf(schema: JsonSchema, defs: Record<string, JsonSchema> = {}): string | undefined {
  const resolved = deref(schema, defs);
  if (typeof resolved.description === 'string') return resolved.description;
  const options = resolved.anyOf ?? resolved.oneOf;
  if (Array.isArray(options)) {
    for (const option of options) if (isSchema(option) && typeof option.description === 'string') return option.description;
  }
  return undefined;
}
