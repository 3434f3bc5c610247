import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RouteDef } from '#shared/route-types.ts';
import { hashSecret } from '#shared/identity/credentials.ts';
import { setLogSink } from '#shared/log.ts';
import type { LogSink } from '#shared/log.ts';
import { ROUTE_LIST } from '#shared/routes.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { connect } from '#infra/admin/connection.ts';
import type { Connection } from '#infra/admin/connection.ts';
import { seedDemo } from '#infra/local/seed.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { testRoute } from '../support/routes.ts';

let runtime: TestRuntime;
let db: Connection;
let dynamo: DynamoDBDocumentClient;
const lines: string[] = [];
let restoreSink: LogSink;
/** Every secret handed out in this file; none may be found in a log line or a stored item. */
const secrets: string[] = [];

beforeAll(async () => {
  // Everything the handlers log, at the most talkative level, from the very start.
  process.env.LOG_LEVEL = 'debug';
  restoreSink = setLogSink((line) => lines.push(line));
  runtime = await startTestRuntime();
  db = connect(runtime.env);
  ({ dynamo } = await import('#shared/wiring/dynamo.ts'));
});

afterAll(async () => {
  setLogSink(restoreSink);
  process.env.LOG_LEVEL = 'silent';
  db?.close();
  await runtime?.dispose();
});

async function allItems(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: runtime.env.WORKSPACE_TABLE, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

describe('secrets at rest and in logs', () => {
  it('never stores or logs an API key or session token in clear', async () => {
    // Prepare: the demo seed (twice, as two starts would), a user, an organization, keys and sessions
    const deps = { store: db.store };
    for (let start = 0; start < 2; start += 1) {
      const demo = await seedDemo(db.store);
      secrets.push(demo.apiKey, demo.sessionToken);
    }
    await admin.createUser(deps, { email: 'sam@example.com', name: 'Sam' });
    const { organization } = await admin.createOrganization(deps, { name: 'Secret Co', plan: 'pro', ownerUserId: 'sam@example.com' });
    const issued = await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'scan' });
    const revoked = await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'scan revoked' });
    await admin.revokeApiKey(deps, { key: revoked.key });
    const { token } = await admin.createSession(deps, { user: 'sam@example.com' });
    secrets.push(issued.key, revoked.key, token);

    // Act: use every credential on every shell route, alone, together, and where it is refused
    const shell = ROUTE_LIST.filter((row) => row.auth === 'session');
    const cookie = `easel.session_token=${token}`;
    for (const row of shell) {
      const url = `${runtime.url}${row.path.replace('{organizationId}', organization.organizationId)}`;
      for (const headers of [
        { cookie },
        { cookie, 'x-api-key': issued.key },
        { 'x-api-key': revoked.key },
        { authorization: `Bearer ${issued.key}`, cookie: `easel.session_token=${secrets[1]}` },
      ]) {
        await fetch(url, { method: row.method, headers });
      }
    }
    // A workspace row through the same middleware: accepted, refused for scope, refused as revoked.
    const { route } = await import('#shared/http/route.ts');
    const { authenticate } = await import('#shared/wiring/auth.ts');
    const probe: RouteDef = testRoute({
      path: '/api/v1/probe',
      auth: 'apiKey',
      permission: 'asset:write',
      cors: 'editor',
      access: { tables: { workspace: ['GetItem', 'BatchGetItem'] }, apiKeyStamp: true },
    });
    const handler = route({ ...probe, operationId: 'probe' }, async () => ({ ok: true }), { authenticate });
    const attempts: Record<string, string>[] = [{ 'x-api-key': issued.key }, { 'x-api-key': revoked.key }, { cookie }, { 'x-api-key': `${issued.key}x` }];
    for (const headers of attempts) {
      await handler(apiEvent({ path: probe.path, headers }), lambdaContext());
    }
    // Let the fire-and-forget last-used writes land before the scan.
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Assess: the table holds the hashes, never the secrets
    const stored = JSON.stringify(await allItems());
    for (const secret of secrets) {
      expect(stored).not.toContain(secret);
      expect(stored).toContain(hashSecret(secret));
    }
    expect(stored).not.toMatch(/easel_(sk|st)_/);

    // Assess: the logs saw every request, and no secret
    const logged = lines.join('\n');
    expect(lines.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(shell.length * 4 + 4);
    expect(logged).toContain('"msg":"authenticated"');
    for (const secret of secrets) expect(logged).not.toContain(secret);
    expect(logged).not.toMatch(/easel_(sk|st)_/);
  });
});
