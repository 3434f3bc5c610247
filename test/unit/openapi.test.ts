import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '#shared/docs/openapi.ts';
import type { OpenApiDocument } from '#shared/docs/openapi.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { handler } from '#functions/discovery/get-openapi.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { runScript } from '../support/script.ts';
import { FIXTURE_ROUTES } from './docs-routes.fixture.ts';

const BASE = 'http://easel.test';
const run = promisify(execFile);

type Json = Record<string, any>;

/** Follows a `#/components/...` reference inside the document. */
function resolve(document: OpenApiDocument, value: Json): Json {
  if (typeof value.$ref !== 'string') return value;
  return value.$ref
    .slice(2)
    .split('/')
    .reduce((node: Json, key: string) => node[key], document as Json);
}

async function validate(document: OpenApiDocument) {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  return { ...result, version: validator.version };
}

/** Runs the Redocly CLI (recommended ruleset) on the document; its package exports no programmatic API. */
async function redoclyLint(document: OpenApiDocument, dir: string, name: string) {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(document));
  const cli = join(process.cwd(), 'node_modules/@redocly/cli/bin/cli.js');
  const { stdout } = await run(process.execPath, [cli, 'lint', file, '--format', 'json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string }[] };
}

describe('buildOpenApi', () => {
  const document = buildOpenApi(BASE);
  const fixture = buildOpenApi(BASE, [...FULL_ROUTE_LIST, ...FIXTURE_ROUTES]);
  const operation = (doc: OpenApiDocument, method: string, path: string) => doc.paths[path]?.[method] as Json;

  it('produces a valid OpenAPI 3.1 document from the route table', async () => {
    const result = await validate(document);

    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('produces a valid document for every kind of row', async () => {
    const result = await validate(fixture);

    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('describes Easel 1.0.0 on the configured server, with a license and contact', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({
      title: 'Easel',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { url: `${BASE}/docs` },
    });
    expect(document.info.description).toContain('X-API-Key');
    expect(document.servers).toEqual([{ url: BASE, description: 'This deployment' }]);
  });

  it('publishes every listed row with its method, path, operation id, summary and tag', () => {
    const listed = FULL_ROUTE_LIST.filter((row) => row.listed);
    expect(listed.length).toBeGreaterThan(0);

    for (const row of listed) {
      expect(operation(document, row.method.toLowerCase(), row.path)).toMatchObject({
        operationId: row.operationId,
        summary: row.summary,
        tags: [row.tag],
      });
    }
    const published = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    const refused = listed.flatMap((row) =>
      (row.refusedMethods ?? []).map((method) => `${row.operationId}Refuses${method[0]}${method.slice(1).toLowerCase()}`),
    );
    expect(published.sort()).toEqual([...listed.map((row) => row.operationId), ...refused].sort());
  });

  it.each([
    ['get', '/api/screenshot', 'POST'],
    ['get', '/api/export', 'POST'],
  ])('publishes %s %s, which always answers 405 with Allow: %s, with that response alone', (method, path, allow) => {
    const op = operation(document, method, path);

    expect(Object.keys(op.responses)).toEqual(['405']);
    expect(op.security).toEqual([]);
    expect(op.description).toContain(`Allow: ${allow}`);
    expect(resolve(document, op.responses['405']).headers).toEqual({ Allow: { description: expect.any(String), schema: { type: 'string' } } });
  });

  it('gives every other operation a 2XX response', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item) as Json[]);
    const withoutSuccess = operations.filter((op) => !/Refuses[A-Z]/.test(op.operationId) && !Object.keys(op.responses).some((status) => /^2/.test(status)));

    expect(withoutSuccess.map((op) => op.operationId)).toEqual([]);
  });

  it('leaves out unlisted and internal rows', () => {
    const ids = Object.values(fixture.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));

    expect(ids).not.toContain('purgeCache');
    expect(ids).not.toContain('hiddenUtility');
    expect(fixture.paths['/internal/cache/purge']).toBeUndefined();
    expect(fixture.paths['/api/hidden']).toBeUndefined();
    expect(fixture.tags.map((tag) => tag.name)).not.toContain('Internal');
  });

  it('gives every tag in use a description', () => {
    // Order follows the table, which grows with every route: compare the sets.
    const inUse = new Set([...FULL_ROUTE_LIST, ...FIXTURE_ROUTES].filter((row) => row.listed && row.auth !== 'internal').map((row) => row.tag));
    expect(fixture.tags.map((tag) => tag.name).sort()).toEqual([...inUse].sort());
    for (const tag of fixture.tags) expect(tag.description).not.toBe('');
  });

  it('declares the API key header and the session cookie as security schemes', () => {
    expect(document.components.securitySchemes).toMatchObject({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'easel.session_token' },
    });
  });

  it.each([
    ['post', '/api/screenshot', []],
    ['get', '/api/v1/releases', [{ apiKey: [] }, { sessionCookie: [] }]],
    ['get', '/api/v1/organizations/{organizationId}/members', [{ sessionCookie: [] }]],
  ])('sets the security of %s %s from its auth kind', (method, path, security) => {
    expect(operation(fixture, method, path).security).toEqual(security);
  });

  it('names the scope of a workspace operation in its description and an extension', () => {
    const op = operation(fixture, 'post', '/api/v1/releases');

    expect(op.description).toContain('scope `release:create`');
    expect(op['x-easel-permission']).toBe('release:create');
  });

  it('copies the vendor extensions of a row onto its operation', () => {
    expect(operation(fixture, 'delete', '/api/v1/assets/{assetId}')['x-easel-entitlement']).toEqual({
      feature: 'asset:delete',
      minimumPlan: 'pro',
      quota: 'api:write:minute',
    });
    expect(operation(fixture, 'post', '/api/screenshot')['x-easel-rate-limit']).toEqual({ limit: 20, windowSeconds: 60 });
  });

  it('derives path, query and header parameters from the valibot schemas', () => {
    expect(operation(fixture, 'get', '/api/tweet/{id}').parameters).toEqual([
      { name: 'id', in: 'path', required: true, description: 'Numeric status ID.', schema: { type: 'string', pattern: '^[0-9]+$' } },
    ]);
    expect(operation(fixture, 'get', '/api/v1/releases').parameters).toEqual([
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
    ]);
    expect(operation(fixture, 'post', '/api/v1/releases').parameters).toEqual([
      { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 128 } },
    ]);
  });

  it('derives the request body from the valibot schema, closed where the schema is strict', () => {
    const body = operation(fixture, 'post', '/api/v1/releases').requestBody;

    expect(body.required).toBe(true);
    expect(body.description).toBe('JSON body of at most 65536 bytes.');
    const schema = body.content['application/json'].schema;
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['title', 'benefitStatement'],
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 160 },
        sourceUrls: { type: 'array', items: { type: 'string', format: 'uri' }, maxItems: 20 },
      },
    });
    expect(schema.$schema).toBeUndefined();
  });

  it('falls back to an open schema for a field JSON Schema cannot express', () => {
    const schema = operation(fixture, 'post', '/api/v1/releases').requestBody.content['application/json'].schema;

    expect(schema.properties.publishAt).toEqual({});
  });

  it('describes success responses with their content types and schemas', () => {
    expect(operation(document, 'get', '/openapi.json').responses['200']).toEqual({
      description: 'OpenAPI 3.1 document.',
      content: { 'application/json': {} },
    });
    expect(operation(fixture, 'post', '/api/export').responses['200'].content).toEqual({
      'image/png': {},
      'image/jpeg': {},
      'image/webp': {},
    });
    expect(operation(fixture, 'post', '/api/screenshot').responses['200'].content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['screenshot', 'url', 'cached'],
    });
  });

  it('refers every error status to a shared response that carries the error envelope', () => {
    for (const item of Object.values(fixture.paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (/^[23]/.test(status)) continue;
          expect(response.$ref, `${op.operationId} ${status}`).toMatch(/^#\/components\/responses\//);
          const schema = resolve(fixture, response).content['application/json'].schema;
          const refs = (schema.anyOf ?? [schema]).map((option: Json) => option.$ref);
          for (const ref of refs)
            expect(ref).toMatch(/^#\/components\/schemas\/(ErrorEnvelope|RateLimitErrorEnvelope|QuotaErrorEnvelope|EntitlementErrorEnvelope)$/);
        }
      }
    }
  });

  it('names the codes an operation can answer with on each error status', () => {
    const responses = operation(fixture, 'get', '/api/tweet/{id}').responses;

    expect(responses['404']).toEqual({
      $ref: '#/components/responses/NotFound',
      description: 'Not Found: `not_found`. See http://easel.test/docs/errors#not_found.',
    });
  });

  it('uses the rate limit envelope for 429 on anonymous routes and the quota envelope elsewhere', () => {
    const rate = resolve(fixture, operation(fixture, 'post', '/api/screenshot').responses['429']);
    const quota = resolve(fixture, operation(fixture, 'delete', '/api/v1/assets/{assetId}').responses['429']);

    expect(rate.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RateLimitErrorEnvelope' });
    expect(Object.keys(rate.headers)).toEqual(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    expect(quota.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/QuotaErrorEnvelope' });
    expect(Object.keys(quota.headers)).toEqual(['Retry-After']);
  });

  it('offers the entitlement envelope on 403 of an operation with an entitlement extension only', () => {
    const entitled = resolve(fixture, operation(fixture, 'delete', '/api/v1/assets/{assetId}').responses['403']);
    const plain = resolve(fixture, operation(fixture, 'get', '/api/v1/releases').responses['403']);

    expect(entitled.content['application/json'].schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, { $ref: '#/components/schemas/EntitlementErrorEnvelope' }],
    });
    expect(plain.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  });

  it('sends the Allow header with 405', () => {
    const response = resolve(fixture, operation(fixture, 'post', '/api/screenshot').responses['405']);

    expect(response.headers).toEqual({ Allow: { description: expect.any(String), schema: { type: 'string' } } });
  });

  it('documents the statuses the shared middleware adds: 400 for input, 413 for bodies, 401 and 403 for credentials', () => {
    expect(Object.keys(operation(fixture, 'post', '/api/v1/releases').responses)).toEqual(['200', '201', '400', '401', '403', '413', '503', '4XX', '5XX']);
    expect(Object.keys(operation(fixture, 'get', '/api/v1/organizations/{organizationId}/members').responses)).toEqual([
      '200',
      '401',
      '403',
      '503',
      '4XX',
      '5XX',
    ]);
  });

  it('publishes the error envelopes as component schemas', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['ErrorEnvelope', 'RateLimitErrorEnvelope', 'EntitlementErrorEnvelope', 'QuotaErrorEnvelope']),
    );
    expect(document.components.schemas.ErrorEnvelope).toMatchObject({
      type: 'object',
      required: ['error', 'code', 'message', 'hint', 'status', 'documentation'],
    });
    expect(document.components.schemas.RateLimitErrorEnvelope!.required).toContain('retryAfter');
  });

  describe('Redocly lint (recommended rules)', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'easel-openapi-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('reports no errors on the route table document', async () => {
      const report = await redoclyLint(document, dir, 'table');

      expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
    });

    it('reports no problems on what npm run lint:openapi prints, for the origin npm start publishes', async () => {
      // Act
      const printed = await runScript('infra/tools/print-openapi.ts');
      const report = await redoclyLint(JSON.parse(printed.stdout) as OpenApiDocument, dir, 'printed');

      // Assess
      expect(JSON.parse(printed.stdout).servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:3000' })]);
      expect(report.problems).toEqual([]);
    });

    it('reports no problems at all on a full table', async () => {
      const report = await redoclyLint(buildOpenApi('https://api.easel.dev', [...FULL_ROUTE_LIST, ...FIXTURE_ROUTES]), dir, 'full');

      expect(report.problems).toEqual([]);
    });
  });
});

describe('get-openapi handler', () => {
  it('returns the document as JSON, cacheable for five minutes', async () => {
    const result = await handler(apiEvent({ path: '/openapi.json' }), lambdaContext());

    expect(result).toMatchObject({
      statusCode: 200,
      isBase64Encoded: false,
      headers: expect.objectContaining({
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
        'Access-Control-Allow-Origin': '*',
        'X-Content-Type-Options': 'nosniff',
      }),
    });
    expect(JSON.parse(result.body!)).toEqual(JSON.parse(JSON.stringify(buildOpenApi(BASE))));
  });

  it('indents the document by two spaces and ends it with a newline, so its head reads in a terminal', async () => {
    const result = await handler(apiEvent({ path: '/openapi.json' }), lambdaContext());

    expect(result.body).toBe(`${JSON.stringify(buildOpenApi(BASE), null, 2)}\n`);
    expect(result.body!.split('\n').slice(0, 2)).toEqual(['{', `  "openapi": "${buildOpenApi(BASE).openapi}",`]);
  });
});
