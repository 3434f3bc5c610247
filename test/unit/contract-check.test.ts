import { describe, expect, it } from 'vitest';
import type { Exchange } from '#infra/local/server.ts';
import { contractChecker } from '../support/contract.ts';

const BASE = 'http://easel.test';
const checker = contractChecker(BASE);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const exchange = (overrides: Partial<Exchange>): Exchange => ({
  method: 'GET',
  path: '/api/v1/releases',
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: json({ releases: [] }),
  ...overrides,
});
const envelope = (status: number, code: string) => ({ error: 'x', code, message: 'x', hint: 'y', status, documentation: `${BASE}/docs/errors#${code}` });

describe('the contract check of test runtimes', () => {
  it.each([
    ['a release list', exchange({})],
    ['a release list with a cursor', exchange({ body: json({ releases: [], nextCursor: 'abc' }) })],
    ['a documented error', exchange({ status: 401, body: json(envelope(401, 'unauthorized')) })],
    ['an error of the 4XX range', exchange({ status: 404, body: json(envelope(404, 'not_found')) })],
    ['a 404 of the fallback', exchange({ path: '/nope', status: 404, body: json(envelope(404, 'not_found')) })],
    ['a HEAD without a body', exchange({ method: 'HEAD', body: Buffer.alloc(0) })],
    ['a text page', exchange({ path: '/llms.txt', headers: { 'content-type': 'text/markdown; charset=utf-8' }, body: Buffer.from('# Easel') })],
  ])('passes %s', (_case, answer) => {
    expect(checker.check(answer)).toBeUndefined();
  });

  it.each([
    ['a body of the wrong shape', exchange({ body: json({ releases: 'none' }) }), /does not match the published schema: \/releases must be array/],
    ['a status the operation does not document', exchange({ status: 302, body: undefined }), /status not documented for listReleases/],
    ['an error that is not the envelope', exchange({ status: 400, body: json({ message: 'bad' }) }), /does not match the published schema/],
    [
      'a fallback error that is not JSON',
      exchange({ path: '/nope', status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Not Found') }),
      /not the JSON envelope/,
    ],
    ['a body that is not JSON under a JSON type', exchange({ body: Buffer.from('{oops') }), /not JSON/],
    [
      'a content type the operation does not document',
      exchange({ headers: { 'content-type': 'text/html' }, body: Buffer.from('<p>') }),
      /Content-Type text\/html not among application\/json/,
    ],
  ])('reports %s', (_case, answer, problem) => {
    expect(checker.check(answer)).toMatch(problem);
  });
});
