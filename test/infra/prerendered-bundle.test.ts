import { appendFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRERENDERED_DOCUMENTS, PRERENDERED_FOLDER, PRERENDERED_PAGES } from '#shared/docs/prerendered-files.ts';
import { renderDocument } from '#shared/docs/render-discovery-documents.ts';
import { renderSitePage } from '#shared/docs/render-site-pages.ts';
import { ROUTES, ROUTE_LIST } from '#shared/routes.ts';
import { deployedEnv, invokeBundledGet, removeCdkOutdirs, sharedRowAsset } from '../support/cdk.ts';

const ORIGIN = 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com';
const invoke = (asset: string, path: string, accept: string) => invokeBundledGet(asset, { path, accept }, deployedEnv({ PUBLIC_BASE_URL: ORIGIN }));

const page = (name: 'home' | 'docs' | 'errors') => renderSitePage(name, ORIGIN);

/** Each function that serves something rendered ahead of time: what it answers, for an Accept, and the file that holds it. */
const CASES = [
  {
    row: ROUTES.getHome,
    path: '/',
    answers: [{ accept: 'text/markdown', type: 'text/markdown; charset=utf-8', body: () => page('home').markdown, file: 'home.md' }],
  },
  {
    row: ROUTES.getDocs,
    path: '/docs',
    answers: [
      { accept: 'text/markdown', type: 'text/markdown; charset=utf-8', body: () => page('docs').markdown, file: 'docs.md' },
      { accept: 'text/html', type: 'text/html; charset=utf-8', body: () => page('docs').html, file: 'docs.html' },
    ],
  },
  {
    row: ROUTES.getErrorDocs,
    path: '/docs/errors',
    answers: [
      { accept: 'text/markdown', type: 'text/markdown; charset=utf-8', body: () => page('errors').markdown, file: 'errors.md' },
      { accept: 'text/html', type: 'text/html; charset=utf-8', body: () => page('errors').html, file: 'errors.html' },
    ],
  },
  {
    row: ROUTES.getOpenApi,
    path: '/openapi.json',
    answers: [{ accept: 'application/json', type: 'application/json; charset=utf-8', body: () => renderDocument('openapi', ORIGIN), file: 'openapi.json' }],
  },
  {
    row: ROUTES.getLlms,
    path: '/llms.txt',
    answers: [{ accept: '*/*', type: 'text/markdown; charset=utf-8', body: () => renderDocument('llms', ORIGIN), file: 'llms.txt' }],
  },
  {
    row: ROUTES.getLlmsFull,
    path: '/llms-full.txt',
    answers: [{ accept: '*/*', type: 'text/markdown; charset=utf-8', body: () => renderDocument('llmsFull', ORIGIN), file: 'llms-full.txt' }],
  },
];

// Bundles each such function for real, as `cdk synth` does (esbuild, then the pre-rendering as a
// bundling hook), and runs what Lambda would receive.
describe.each(CASES.map((item) => [item.row.operationId, item] as const))('the %s function bundle', (_name, { row, path, answers }) => {
  let asset: string;

  beforeAll(async () => {
    // Prepare + Act
    asset = await sharedRowAsset(row);
  }, 120_000);

  afterAll(removeCdkOutdirs);

  it('holds every page and document beside index.mjs', () => {
    const expected = [...PRERENDERED_PAGES.flatMap((name) => [`${name}.html`, `${name}.md`]), ...Object.values(PRERENDERED_DOCUMENTS)];
    expect(readdirSync(join(asset, PRERENDERED_FOLDER)).sort()).toEqual(expected.sort());
  });

  it("carries no renderer: neither marked, nor the schemas' converter, nor the documents' sources", () => {
    const map = JSON.parse(readFileSync(join(asset, 'index.mjs.map'), 'utf8')) as { sources: string[] };

    const renderers = map.sources.filter((source) =>
      /node_modules\/(marked|@valibot\/to-json-schema)\/|shared\/docs\/(site|html|reference|operations|openapi|llms|render)\.ts$/.test(source),
    );
    expect(renderers).toEqual([]);
  });

  it.each(answers.map((answer) => [answer.accept, answer] as const))('answers Accept: %s with what the sources render for its origin', (_accept, answer) => {
    const result = invoke(asset, path, answer.accept);

    expect(result).toMatchObject({ statusCode: 200, headers: { 'Content-Type': answer.type, 'Cache-Control': 'public, max-age=300' } });
    expect(result.body).toBe(answer.body());
  });

  it('reads what it serves from the file', () => {
    // Prepare: a mark only the file holds
    const [answer] = answers;
    const mark = answer!.file.endsWith('.json') ? ' ' : '<!-- from the file -->';
    appendFileSync(join(asset, PRERENDERED_FOLDER, answer!.file), mark);

    // Act
    const { body } = invoke(asset, path, answer!.accept);

    // Assess
    expect(body).toBe(answer!.body() + mark);
  });

  it('answers 500 with the envelope when the file is missing', () => {
    // Prepare
    rmSync(join(asset, PRERENDERED_FOLDER), { recursive: true });

    // Act
    const { statusCode, body } = invoke(asset, path, answers[0]!.accept);

    // Assess
    expect(statusCode).toBe(500);
    expect(JSON.parse(body)).toMatchObject({ code: 'internal_error', status: 500 });
  });
});

describe('the route table', () => {
  it('pre-renders for exactly the routes that serve a page or a document', () => {
    expect(
      ROUTE_LIST.filter((row) => row.prerendered)
        .map((row) => `${row.method} ${row.path}`)
        .sort(),
    ).toEqual(['GET /', 'GET /docs', 'GET /docs/errors', 'GET /openapi.json', 'GET /llms.txt', 'GET /llms-full.txt'].sort());
  });
});
