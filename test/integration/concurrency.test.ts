/**
 * Exact limits under concurrency, on the local runtime: every request of a burst is in flight
 * at once, and the counts that come out are exact — no request admitted past a limit, none
 * refused below it, and the stored counters equal what was admitted (no lost update).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { quotaLimit } from '#shared/identity/plans.ts';
import { ROUTES } from '#shared/routes.ts';
import { call, freshClient } from '../support/client.ts';
import type { ClientResponse } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { startTestRuntime } from '../support/local.ts';
import { inOneWindow } from '../support/clock.ts';
import type { TestRuntime } from '../support/local.ts';
import { createFixtures } from '../support/route-requests.ts';
import type { Fixtures } from '../support/route-requests.ts';
import { collectedLogLines } from '../support/secret-audit.ts';
import { startTargetPages } from '../support/target-pages.ts';
import type { TargetPages } from '../support/target-pages.ts';

const CAPTURE_RULE = ROUTES.capturePage.extensions['x-easel-rate-limit'];
const DELETE_LIMIT = quotaLimit('pro', 'api:write:minute');

let runtime: TestRuntime;
let fixtures: Fixtures;
let pages: TargetPages;
let dynamo: DynamoDBDocumentClient;

beforeAll(async () => {
  pages = await startTargetPages();
  process.env.UNSAFE_TEST_LOOPBACK_PORTS = String(pages.port);
  runtime = await startTestRuntime();
  fixtures = await createFixtures(runtime);
  dynamo = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: 'us-east-1', endpoint: runtime.env.DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
  );
});

afterAll(async () => {
  dynamo?.destroy();
  fixtures?.close();
  await runtime?.dispose();
  await pages?.close();
  delete process.env.UNSAFE_TEST_LOOPBACK_PORTS;
});

const burst = (count: number, send: () => Promise<ClientResponse>) => Promise.all(Array.from({ length: count }, send));
const statuses = (responses: ClientResponse[]) =>
  responses.reduce<Record<number, number>>((counts, response) => {
    counts[response.status] = (counts[response.status] ?? 0) + 1;
    return counts;
  }, {});

describe('concurrency', () => {
  it(`admits exactly ${CAPTURE_RULE.limit} of 100 concurrent captures from one address; the rest get 429 and never reach the browser`, async () => {
    // Prepare: the page is in the cache, so admitted captures need no browser either
    const url = `${pages.origin}/plain?title=burst`;
    expect((await call(runtime.url, '/api/screenshot', { body: { url } })).status).toBe(200);
    const hits = pages.hits.length;
    const captures = collectedLogLines().filter((line) => line.includes('"msg":"page captured"')).length;
    const client = freshClient();

    // Act
    const responses = await inOneWindow(CAPTURE_RULE.windowSeconds, () =>
      burst(100, () => call(runtime.url, '/api/screenshot', { body: { url }, from: client })),
    );

    // Assess: the counts
    expect(statuses(responses)).toEqual({ 200: CAPTURE_RULE.limit, 429: 100 - CAPTURE_RULE.limit });
    const admitted = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 429);
    expect(admitted.every((response) => response.body.cached === true)).toBe(true);
    expect(admitted.map((response) => Number(response.headers['x-ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: CAPTURE_RULE.limit }, (_, index) => index),
    );
    // Assess: every refusal is the whole envelope with the headers
    const reset = responses[0]!.headers['x-ratelimit-reset']!;
    for (const response of refused) {
      const retryAfter = Number(response.headers['retry-after']);
      expect(response.headers).toMatchObject({ 'x-ratelimit-limit': String(CAPTURE_RULE.limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset });
      expect(response.body).toEqual({
        ...expectedEnvelope(runtime.url, 429, 'rate_limited'),
        retryAfter,
        hint: `Wait ${retryAfter} s before retrying: the limit is ${CAPTURE_RULE.limit} requests per ${CAPTURE_RULE.windowSeconds} s per IP address.`,
      });
    }
    // Assess: nothing reached the page or the browser, and the counter holds exactly the admitted requests
    expect(pages.hits.length).toBe(hits);
    expect(collectedLogLines().filter((line) => line.includes('"msg":"page captured"')).length).toBe(captures);
    const windowStart = Number(reset) - CAPTURE_RULE.windowSeconds * 1000;
    const { Item } = await dynamo.send(
      new GetCommand({ TableName: runtime.env.RATE_TABLE, Key: { pk: `capturePage#ip#${client}#${windowStart}` }, ConsistentRead: true }),
    );
    expect(Item?.hits).toBe(CAPTURE_RULE.limit);
  });

  it('creates one release for 50 concurrent requests with one Idempotency-Key, and answers each with that record', async () => {
    // Prepare
    const body = { title: `Concurrent ${randomUUID()}`, benefitStatement: 'Exactly once.', sourceUrls: ['https://example.com/pr/1'] };
    const headers = { 'x-api-key': fixtures.a.key, 'idempotency-key': randomUUID() };

    // Act
    const responses = await burst(50, () => call(runtime.url, '/api/v1/releases', { body, headers }));

    // Assess
    expect(statuses(responses)).toEqual({ 201: 1, 200: 49 });
    const created = responses.find((response) => response.status === 201)!.body;
    expect(created).toEqual({ id: expect.any(String), ...body, createdAt: expect.any(String) });
    for (const response of responses) expect(response.body).toEqual(created);
    const listed = await call(runtime.url, '/api/v1/releases?limit=100', { headers: { 'x-api-key': fixtures.a.key } });
    expect(listed.body.releases.filter((release: { title: string }) => release.title === body.title)).toEqual([created]);
  });

  it(`admits exactly the quota of ${DELETE_LIMIT} of ${2 * DELETE_LIMIT} concurrent deletes, and counts exactly that`, async () => {
    // Prepare: a workspace of its own (every attempt counts, whatever the asset; these do not exist)
    // Act
    const responses = await inOneWindow(60, () =>
      burst(2 * DELETE_LIMIT, () => call(runtime.url, `/api/v1/assets/${randomUUID()}`, { method: 'DELETE', headers: { 'x-api-key': fixtures.b.key } })),
    );

    // Assess
    expect(statuses(responses)).toEqual({ 404: DELETE_LIMIT, 429: DELETE_LIMIT });
    for (const response of responses.filter((item) => item.status === 429)) {
      expect(response.body).toEqual({ ...expectedEnvelope(runtime.url, 429, 'workspace_quota_exceeded'), limit: DELETE_LIMIT, quota: 'api:write:minute' });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    for (const response of responses.filter((item) => item.status === 404)) expect(response.body).toEqual(expectedEnvelope(runtime.url, 404, 'not_found'));
    const { Items = [] } = await dynamo.send(
      new ScanCommand({
        TableName: runtime.env.RATE_TABLE,
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': `quota#api:write:minute#${fixtures.b.workspaceId}#` },
        ConsistentRead: true,
      }),
    );
    expect(Items.map((item) => item.hits)).toEqual([DELETE_LIMIT]);
  });
});
