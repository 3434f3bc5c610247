import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime } from '../support/local.ts';
import type { TestRuntime } from '../support/local.ts';
import { collectedLogLines } from '../support/secret-audit.ts';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});

afterAll(() => runtime?.dispose());

/** The EMF records written so far for requests of `requestId`. */
const metricLinesOf = (requestId: string) =>
  collectedLogLines()
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line._aws !== undefined && line.requestId === requestId);

describe("the local runtime's metric lines", () => {
  it.each([
    ['/openapi.json', 200, { Operation: 'getOpenApi' }],
    ['/api/v1/releases', 401, { Operation: 'listReleases', AuthRefusals: 1, Code: 'unauthorized' }],
    ['/no/such/route', 404, { Operation: 'fallback' }],
  ])('writes the EMF line of GET %s (%i) to its log, as a deployed function does', async (path, status, fields) => {
    // Act
    const response = await fetch(`${runtime.url}${path}`);
    await response.arrayBuffer();

    // Assess: the handler has answered, so its lines are written.
    expect(response.status).toBe(status);
    const requestId = response.headers.get('x-request-id')!;
    // One record per set of dimension values: a refusal's count is apart from the route's latency.
    const records = metricLinesOf(requestId);
    expect(records.length).toBe('AuthRefusals' in fields ? 2 : 1);
    expect(Object.assign({}, ...records)).toMatchObject({
      ...fields,
      status,
      RouteLatency: expect.any(Number),
      _aws: { CloudWatchMetrics: [expect.objectContaining({ Namespace: 'Easel' })] },
    });
  });
});
