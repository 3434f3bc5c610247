/**
 * Failing dependencies, on the running local runtime: each embedded backend (DynamoDB, S3, SQS)
 * is stopped, then made silent (a listener on its port that accepts and never answers), and
 * every row of the route table whose `access` names that backend must answer 503
 * `upstream_unavailable` from the data-access layer within its time-out — or, where the backend
 * is not on the request's path, its usual answer — and recover once the backend is back on the
 * same port and data. Rows that need no backend keep answering throughout.
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef } from '#shared/route-types.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import type { OperationId } from '#shared/routes.ts';
import { call } from '../support/client.ts';
import type { ClientResponse } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { startTestRuntime } from '../support/local.ts';
import type { TestRuntime } from '../support/local.ts';
import { createFixtures, credentialsFor, requestFor, send, successStatuses } from '../support/route-requests.ts';
import type { Fixtures, RouteRequest } from '../support/route-requests.ts';
import { startTargetPages } from '../support/target-pages.ts';
import type { TargetPages } from '../support/target-pages.ts';

type Row = RouteDef & { operationId: OperationId };
type Backend = 'dynamodb' | 's3' | 'sqs';

const BACKENDS: Backend[] = ['dynamodb', 's3', 'sqs'];

/** Whether a row's `access` (what the stack grants it) names the backend. */
const needs = (row: Row, backend: Backend): boolean =>
  Object.keys((backend === 'dynamodb' ? row.access.tables : backend === 's3' ? row.access.buckets : row.access.queues) ?? {}).length > 0;

/**
 * Rows granted a backend that their request does not call, so they keep their usual answer
 * while it is down. Every other (row, backend) pair must answer 503.
 */
const UNAFFECTED: Partial<Record<OperationId, Partial<Record<Backend, string>>>> = {
  createAssetUpload: { s3: 'a presigned URL is computed locally; only the client’s PUT reaches S3' },
  getAssetDownloadUrl: { s3: 'presigning needs no call to S3' },
  listAssets: { s3: 'presigning needs no call to S3' },
  capturePage: { s3: 'the capture cache is best-effort: the capture is answered uncached' },
  takeInRelease: { sqs: 'its request is a ping: only a new draft with sourceUrls queues shots' },
};

/** What the envelope says when Lambda's time-out, not the data-access layer, ended the request. */
const ROUTE_TIMEOUT_HINT = 'The request took longer than this route allows; retry later.';

/** Rows that read no backend and take no input: they must keep answering whatever is down. */
const INDEPENDENT = FULL_ROUTE_LIST.filter(
  (row) => BACKENDS.every((backend) => !needs(row, backend)) && !row.params && !row.query && !row.body && row.auth === 'none',
);

let runtime: TestRuntime;
let fixtures: Fixtures;
let pages: TargetPages;

beforeAll(async () => {
  pages = await startTargetPages();
  process.env.UNSAFE_TEST_LOOPBACK_PORTS = String(pages.port);
  // The deployed time-outs, which these cases are about, not the raised ones of test/support/env.ts.
  runtime = await startTestRuntime({ env: { SDK_CONNECT_TIMEOUT_MS: '1000', SDK_REQUEST_TIMEOUT_MS: '2000' } });
  fixtures = await createFixtures(runtime);
});

afterAll(async () => {
  fixtures?.close();
  await runtime?.dispose();
  await pages?.close();
  delete process.env.UNSAFE_TEST_LOOPBACK_PORTS;
});

interface Cell {
  row: Row;
  request: RouteRequest;
  headers: Record<string, string>;
}

interface Outcome {
  response: ClientResponse;
  ms: number;
}

async function prepare(rows: readonly Row[]): Promise<Cell[]> {
  const bodies = { capturePage: { url: `${pages.origin}/plain?title=faults` } };
  return Promise.all(
    rows.map(async (row) => {
      const request = await requestFor(runtime.url, fixtures, row, bodies);
      return { row, request, headers: credentialsFor(fixtures, row, request) };
    }),
  );
}

async function sendAll(cells: readonly Cell[]): Promise<Map<Cell, Outcome>> {
  const outcomes = await Promise.all(
    cells.map(async (cell) => {
      const started = performance.now();
      const response = await send(runtime.url, cell.request, cell.headers);
      return [cell, { response, ms: performance.now() - started }] as const;
    }),
  );
  return new Map(outcomes);
}

const rowsNeeding = (backend: Backend) => FULL_ROUTE_LIST.filter((row): row is Row => needs(row as Row, backend));
const label = (row: Row) => `${row.method} ${row.path}`;

function expectUnavailable(cell: Cell, outcome: Outcome, down: readonly Backend[]): void {
  expect(outcome.response).toMatchObject({ status: 503, body: expectedEnvelope(runtime.url, 503, 'upstream_unavailable') });
  // A rate-limited route still says its limit, with nothing left when it cannot count (the rate
  // table is DynamoDB's); a request counted before another backend failed says what is left.
  const rule = cell.row.extensions?.['x-easel-rate-limit'] as { limit: number } | undefined;
  if (rule) {
    expect(outcome.response.headers).toMatchObject({
      'x-ratelimit-limit': String(rule.limit),
      'x-ratelimit-remaining': down.includes('dynamodb') ? '0' : expect.stringMatching(/^\d+$/),
      'x-ratelimit-reset': expect.stringMatching(/^\d+$/),
    });
  }
  // The data-access layer gave up, not Lambda's time-out.
  expect(outcome.response.body.hint).not.toBe(ROUTE_TIMEOUT_HINT);
  expect(outcome.ms).toBeLessThan(cell.row.timeout * 1000);
}

function expectSuccess(cell: Cell, response: ClientResponse): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({
    status: expect.toSatisfy((status: number) => successStatuses(cell.row).includes(status)),
    code: undefined,
  });
}

/** A listener on the backend's port that accepts connections and never answers: a hung service. */
async function silence(port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.each(BACKENDS)('with the embedded %s stopped', (backend) => {
  const rows = rowsNeeding(backend);
  let cells: Cell[];
  let independent: Cell[];
  let down: Map<Cell, Outcome>;

  beforeAll(async () => {
    // Prepare: every request is valid and would succeed; then the backend goes away
    cells = await prepare(rows);
    independent = await prepare(INDEPENDENT as Row[]);
    await runtime.embedded[backend]!.stop();

    // Act: all at once, as clients would keep arriving
    down = await sendAll([...cells, ...independent]);
  });

  const unavailable = rows.filter((row) => !UNAFFECTED[row.operationId]?.[backend]).map((row) => [label(row), row] as const);
  const unaffected = rows
    .filter((row) => UNAFFECTED[row.operationId]?.[backend])
    .map((row) => [label(row), UNAFFECTED[row.operationId]![backend]!, row] as const);

  it.each(unavailable)('answers %s with 503 upstream_unavailable within its time-out', (_label, row) => {
    const cell = cells.find((item) => item.row === row)!;
    expectUnavailable(cell, down.get(cell)!, [backend]);
  });

  if (unaffected.length > 0) {
    it.each(unaffected)('answers %s as usual (%s)', (_label, _why, row) => {
      const cell = cells.find((item) => item.row === row)!;
      expectSuccess(cell, down.get(cell)!.response);
    });
  }

  it.each(INDEPENDENT.map((row) => [label(row), row] as const))('keeps answering %s, which needs no backend', (_label, row) => {
    const cell = independent.find((item) => item.row === row)!;
    expect(down.get(cell)!.response.status).toBe(200);
  });

  describe('once it is back on the same port and data', () => {
    let up: Map<Cell, Outcome>;

    beforeAll(async () => {
      await runtime.embedded[backend]!.start();
      up = await sendAll(cells);
    });

    it.each(rows.map((row) => [label(row), row] as const))('answers %s with its success again', (_label, row) => {
      const cell = cells.find((item) => item.row === row)!;
      expectSuccess(cell, up.get(cell)!.response);
    });
  });
});

describe('an asset whose deletion cannot be queued', () => {
  it('stays ready and downloadable, and is deleted once the queue is back', async () => {
    // Prepare
    const [cell] = await prepare([FULL_ROUTE_LIST.find((row) => row.operationId === 'deleteAsset') as Row]);
    const downloadPath = cell!.request.path.replace(/$/, '/download-url');
    await runtime.embedded.sqs!.stop();

    // Act
    const refused = await send(runtime.url, cell!.request, cell!.headers);
    const download = await call(runtime.url, downloadPath, { headers: cell!.headers });
    const bytes = await fetch(download.body.downloadUrl);
    await runtime.embedded.sqs!.start();
    const accepted = await send(runtime.url, cell!.request, cell!.headers);

    // Assess
    expect(refused).toMatchObject({
      status: 503,
      body: { ...expectedEnvelope(runtime.url, 503, 'upstream_unavailable'), hint: 'The deletion queue is unavailable; retry shortly.' },
    });
    expect([download.status, bytes.status]).toEqual([200, 200]);
    expect(accepted).toMatchObject({ status: 202, body: { status: 'deleting' } });
  });
});

describe('with a backend silent (accepting connections, never answering)', () => {
  // S3 and SQS go silent together: the rows that need them fail at their own backend, DynamoDB up.
  it.each([
    ['dynamodb', ['dynamodb']],
    ['s3 and sqs', ['s3', 'sqs']],
  ] as const)(
    'answers every row that needs %s with 503 upstream_unavailable from the time limits of the clients, before the route time-out',
    async (_name, silent) => {
      // Prepare
      const rows = silent.flatMap((backend) => rowsNeeding(backend).filter((row) => !UNAFFECTED[row.operationId]?.[backend]));
      const cells = await prepare([...new Set(rows)]);
      const hung = await Promise.all(
        silent.map(async (backend) => {
          const embedded = runtime.embedded[backend]!;
          await embedded.stop();
          const listener = await silence(embedded.port);
          return async () => {
            await listener.close();
            await embedded.start();
          };
        }),
      );

      // Act
      const outcomes = await sendAll(cells).finally(() => Promise.all(hung.map((restore) => restore())));

      // Assess
      for (const cell of cells) expectUnavailable(cell, outcomes.get(cell)!, silent);
    },
    60_000,
  );
});
