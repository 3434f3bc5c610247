/**
 * The published contract, held against real answers: every response the local server gives is
 * looked up in the /openapi.json the service publishes (operation by method and path, response
 * by status or its 4XX/5XX range) and its JSON body validated against that response's schema.
 * Test runtimes run every answer through it, so any drift between what the code sends and what
 * the document promises fails the test file that produced it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { OpenApiDocument } from '#shared/docs/openapi.ts';
import { buildOpenApi } from '#shared/docs/openapi.ts';
import { routeMatcher } from '#shared/http/match.ts';
import { ROUTE_LIST } from '#shared/routes.ts';
import type { Exchange } from '#infra/local/server.ts';

type Json = Record<string, any>;

const matchRoute = routeMatcher(ROUTE_LIST);

// ajv-formats is CommonJS with a default export: under NodeNext it arrives as the module object.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ?? addFormatsPlugin) as unknown as (ajv: Ajv2020) => void;

export interface ContractChecker {
  /** A description of how the exchange breaks the contract, or undefined when it keeps it. */
  check(exchange: Exchange): string | undefined;
}

/** A checker for the document this deployment publishes (built for `publicBaseUrl`). */
export function contractChecker(publicBaseUrl: string): ContractChecker {
  const document = buildOpenApi(publicBaseUrl) as OpenApiDocument & { components: Json };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  const compiled = new Map<string, ValidateFunction>();

  const resolve = (value: Json): Json => {
    let current = value;
    while (typeof current.$ref === 'string') {
      const path = current.$ref.replace(/^#\//, '').split('/');
      current = path.reduce((node: Json, key: string) => node?.[key], document as Json);
    }
    return current;
  };
  // Local references in the document become references into the registered 'openapi' schema.
  const rebase = (schema: unknown): unknown =>
    Array.isArray(schema)
      ? schema.map(rebase)
      : schema && typeof schema === 'object'
        ? Object.fromEntries(
            Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? `openapi${value}` : rebase(value)]),
          )
        : schema;
  const validator = (key: string, schema: Json): ValidateFunction => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(rebase(schema) as Json);
      compiled.set(key, validate);
    }
    return validate;
  };
  const envelope = resolve({ $ref: '#/components/schemas/ErrorEnvelope' });

  return {
    check(exchange) {
      const where = `${exchange.method} ${exchange.path} → ${exchange.status}`;
      const match = matchRoute(exchange.method, exchange.path);
      const type = (exchange.headers['content-type'] ?? '').split(';')[0]!.trim();
      const json = type === 'application/json' || type.endsWith('+json');
      const body = exchange.body && exchange.body.length > 0 && exchange.method !== 'HEAD' ? exchange.body : undefined;
      let parsed: unknown;
      if (json && body) {
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          return `${where}: Content-Type ${type} but the body is not JSON`;
        }
      }

      // Answers of the fallback (404, 405, preflight) and of unlisted routes: errors must be the envelope.
      const operation: Json | undefined =
        match.kind === 'route' && match.route.listed ? document.paths[match.route.path]?.[match.route.method.toLowerCase()] : undefined;
      if (!operation) {
        if (exchange.status >= 400 && parsed !== undefined) return verdict(validator('ErrorEnvelope', envelope), parsed, `${where} (no published operation)`);
        if (exchange.status >= 400 && body && !json) return `${where}: an error answer that is not the JSON envelope (${type || 'no Content-Type'})`;
        return undefined;
      }
      const responses = operation.responses as Json;
      const declared = responses[String(exchange.status)] ?? responses[`${String(exchange.status)[0]}XX`];
      if (!declared) return `${where}: status not documented for ${operation.operationId} (documented: ${Object.keys(responses).join(', ')})`;
      const response = resolve(declared);
      if (!body) return undefined;
      const content = response.content as Json | undefined;
      if (!content) return `${where}: a body where ${operation.operationId} documents none for this status`;
      const media = content[type] ?? Object.entries(content).find(([name]) => name.endsWith('/*') && type.startsWith(name.slice(0, -1)))?.[1];
      if (!media) return `${where}: Content-Type ${type || 'none'} not among ${Object.keys(content).join(', ')} documented for ${operation.operationId}`;
      if (!media.schema || parsed === undefined) return undefined;
      return verdict(validator(`${operation.operationId} ${exchange.status} ${type}`, media.schema), parsed, where);
    },
  };
}

function verdict(validate: ValidateFunction, value: unknown, where: string): string | undefined {
  if (validate(value)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '(body)'} ${error.message}`);
  return `${where}: the body does not match the published schema: ${errors.join('; ')}`;
}
