import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '#infra/admin/cli.ts';
import { connect } from '#infra/admin/connection.ts';
import type { Connection } from '#infra/admin/connection.ts';
import { DEMO, seedDemo } from '#infra/local/seed.ts';
import type { InvitationRecord } from '#shared/schemas/identity.ts';
import { keys } from '#shared/store/keys.ts';
import { call } from '../support/client.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { signInWithCode } from '../support/sign-in.ts';

const run = promisify(execFile);

let runtime: TestRuntime;
let db: Connection;

beforeAll(async () => {
  runtime = await startTestRuntime();
  db = connect(runtime.env);
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

/** The environment `npm run admin` would see next to a running `npm start`. */
function cliEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, DYNAMODB_ENDPOINT: runtime.env.DYNAMODB_ENDPOINT, WORKSPACE_TABLE: runtime.env.WORKSPACE_TABLE, ...env };
}

/** Runs the command line in this process against the runtime's tables, capturing its output. */
async function admin(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, { env: cliEnv(env), stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

async function adminJson<T = Record<string, any>>(args: string[]): Promise<T> {
  const { code, stdout, stderr } = await admin([...args, '--json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as T;
}

const get = (path: string, headers: Record<string, string>) =>
  fetch(`${runtime.url}${path}`, { headers }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, any> }));

describe('npm run admin', () => {
  it('runs as the npm script, printing JSON for scripts', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'create-user', '--email', 'script@cli.test', '--name', 'Scripted', '--json'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: cliEnv(),
    });
    expect(JSON.parse(stdout)).toMatchObject({ user: { email: 'script@cli.test', name: 'Scripted' } });
  });

  it('creates a user, an organization on a plan, members, an invitation, a surface and a session that signs in', async () => {
    // Act
    const { user } = await adminJson(['create-user', '--email', 'owner@cli.test', '--name', 'Olive Owner']);
    const created = await adminJson(['create-org', '--name', 'CLI Co', '--plan', 'business', '--owner', 'owner@cli.test', '--time-zone', 'Asia/Tokyo']);
    const organizationId = created.organization.organizationId as string;
    await adminJson(['create-user', '--email', 'member@cli.test', '--name', 'Max Member']);
    await adminJson(['add-member', '--org', organizationId, '--user', 'member@cli.test', '--role', 'member']);
    await adminJson(['invite', '--org', organizationId, '--email', 'new@cli.test', '--role', 'admin', '--invited-by', user.userId]);
    await adminJson(['create-surface', '--org', organizationId, '--name', 'Mobile']);
    const { cookie, session } = await adminJson(['create-session', '--user', 'owner@cli.test', '--hours', '1']);

    // Assess
    expect(user).toMatchObject({ userId: expect.stringMatching(/^usr_/), email: 'owner@cli.test' });
    expect(created.membership).toMatchObject({ role: 'owner', userId: user.userId });
    expect(session).toMatchObject({ userId: user.userId, activeOrganizationId: organizationId });
    expect(session).not.toHaveProperty('tokenHash');
    const bootstrap = await get('/api/v1/bootstrap', { cookie });
    expect(bootstrap.status).toBe(200);
    expect(bootstrap.body).toMatchObject({
      organization: { id: organizationId, name: 'CLI Co' },
      entitlements: { plan: 'business', status: 'active' },
      workspace: { settings: { timeZone: 'Asia/Tokyo' }, productSurfaces: [{ name: 'Mobile' }] },
      counters: { members: 2, pendingInvitations: 1, activeApiKeys: 0, productSurfaces: 1 },
    });
  });

  it('prints a key once, lists keys without secrets, and revokes them', async () => {
    // Prepare
    const { organization } = await adminJson(['create-org', '--name', 'Keys Co', '--plan', 'free']);

    // Act
    const { key, apiKey } = await adminJson(['create-key', '--org', organization.organizationId, '--name', 'ci', '--scopes', 'artifact:read,upload:sign']);
    const listed = await admin(['list-keys', '--org', organization.organizationId, '--json']);
    const revoked = await adminJson(['revoke-key', '--org', organization.organizationId, '--key-id', apiKey.keyId]);
    const after = await adminJson(['list-keys', '--org', organization.organizationId]);

    // Assess
    expect(key).toMatch(/^easel_sk_/);
    expect(apiKey).toMatchObject({ keyId: expect.stringMatching(/^key_/), scopes: ['artifact:read', 'upload:sign'], createdBy: 'admin-cli' });
    expect(listed.stdout).not.toContain(key);
    expect(JSON.parse(listed.stdout).keys).toEqual([expect.objectContaining({ keyId: apiKey.keyId, name: 'ci' })]);
    expect(JSON.parse(listed.stdout).keys[0]).not.toHaveProperty('keyHash');
    expect(revoked.apiKey.revokedAt).toEqual(expect.any(String));
    expect(after.keys[0].revokedAt).toBe(revoked.apiKey.revokedAt);
  });

  it('prints the secret in human output with a warning that it is shown once', async () => {
    const { organization } = await adminJson(['create-org', '--name', 'Human Co']);
    const { code, stdout } = await admin(['create-key', '--org', organization.organizationId]);

    expect(code).toBe(0);
    expect(stdout).toMatch(/secret: easel_sk_\w+/);
    expect(stdout).toContain('only time the key is shown');
  });

  it('changes the plan and deletes an organization, which revokes its keys', async () => {
    const { organization } = await adminJson(['create-org', '--name', 'Plan Co', '--plan', 'free']);
    const id = organization.organizationId as string;
    await adminJson(['create-key', '--org', id]);

    expect((await adminJson(['set-plan', '--org', id, '--plan', 'enterprise', '--status', 'trialing'])).entitlement).toEqual({
      plan: 'enterprise',
      status: 'trialing',
      features: [],
    });
    await adminJson(['delete-org', '--org', id]);

    const { keys } = await adminJson(['list-keys', '--org', id]);
    expect(keys.every((key: { revokedAt?: string }) => key.revokedAt)).toBe(true);
    expect((await db.store.getOrganization(id))?.deletionState).toBe('deleted');
  });

  it('indexes invitations written before the address index, so sign-in finds them, and finds none the second time', async () => {
    // Prepare: two invitations as they were written before the index (one pending, one expired), one written since
    const { organization } = await adminJson(['create-org', '--name', 'Older Co']);
    const organizationId = organization.organizationId as string;
    const now = Math.floor(Date.now() / 1000);
    const legacy = (invitationId: string, email: string, expiresAt: number): InvitationRecord => ({
      invitationId,
      organizationId,
      email,
      role: 'member',
      status: 'pending',
      createdAt: new Date((expiresAt - 7 * 86_400) * 1000).toISOString(),
      expiresAt,
    });
    const older = [legacy('inv_legacypending', 'early@cli.test', now + 86_400), legacy('inv_legacyexpired', 'early@cli.test', now - 60)];
    for (const record of older) {
      await db.dynamo.send(new PutCommand({ TableName: db.table, Item: { ...keys.invitation(organizationId, record.invitationId), ...record } }));
    }
    const recent = await adminJson(['invite', '--org', organizationId, '--email', 'early@cli.test']);
    const before = await db.store.listInvitationsOfEmail('early@cli.test');

    // Act
    const first = await adminJson(['index-invitations']);
    const second = await adminJson(['index-invitations']);
    const cookie = await signInWithCode(runtime.url, runtime.env.EMAIL_OUTBOX!, 'early@cli.test');
    const mine = await call(runtime.url, '/api/v1/auth/invitations', { headers: { cookie } });

    // Assess
    expect(before.map((invitation) => invitation.invitationId)).toEqual([recent.invitation.invitationId]);
    expect(first.indexed.sort((a: InvitationRecord, b: InvitationRecord) => a.invitationId.localeCompare(b.invitationId))).toEqual([older[1], older[0]]);
    expect(second).toEqual({ indexed: [] });
    expect(mine.status).toBe(200);
    expect(mine.body.invitations.map((invitation: { id: string; status: string }) => [invitation.id, invitation.status]).sort()).toEqual(
      [
        ['inv_legacyexpired', 'expired'],
        ['inv_legacypending', 'pending'],
        [recent.invitation.invitationId, 'pending'],
      ].sort(),
    );
  });

  it('fails with exit code 1 and a JSON error for an unknown organization', async () => {
    const { code, stdout, stderr } = await admin(['create-key', '--org', 'org_nope', '--json']);

    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(JSON.parse(stderr)).toEqual({ code: 'not_found', error: expect.stringContaining('No organization org_nope') });
  });

  it('refuses a duplicate e-mail with exit code 1', async () => {
    await adminJson(['create-user', '--email', 'twice@cli.test', '--name', 'Once']);
    const { code, stderr } = await admin(['create-user', '--email', 'TWICE@cli.test', '--name', 'Twice']);
    expect(code).toBe(1);
    expect(stderr).toContain('already exists');
  });

  it.each([
    [['nope'], /Unknown command nope/],
    [['create-key'], /Missing --org/],
    [['create-key', '--org', 'x', '--bogus'], /Unknown option '--bogus'/],
  ])('exits with code 2 and the usage for %j', async (args, message) => {
    const { code, stderr } = await admin(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('Usage: npm run admin --');
  });

  it('says how to fix an unreachable DynamoDB, naming DYNAMODB_ENDPOINT when that is what points there', async () => {
    const { code, stderr } = await admin(['list-keys', '--org', 'x'], { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' });
    expect(code).toBe(1);
    expect(stderr).toBe('error: Cannot reach DynamoDB at http://127.0.0.1:9. Check DYNAMODB_ENDPOINT, or unset it to reach the `npm start` of this folder.\n');
  });
});

describe('npm run admin beside an npm start on other ports', () => {
  /** Runs the command line with only the given settings: no DYNAMODB_ENDPOINT, as a newcomer types it. */
  async function bare(args: string[], env: Record<string, string>) {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(args, { env: { PATH: process.env.PATH, ...env }, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, stdout, stderr };
  }

  it('finds the server through its data folder, whatever port its DynamoDB got', async () => {
    // Prepare
    const demo = await seedDemo(db.store);

    // Act
    const listed = await bare(['list-keys', '--org', DEMO.organizationId, '--json'], { EASEL_DATA_DIR: runtime.dataDir });

    // Assess
    expect(new URL(runtime.env.DYNAMODB_ENDPOINT!).port).not.toBe('3571');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout).keys).toContainEqual(expect.objectContaining({ keyId: demo.keyId, name: expect.any(String) }));
  });

  it('names DYNAMODB_PORT when the port it gives does not answer', async () => {
    const { code, stderr } = await bare(['list-keys', '--org', 'x'], { EASEL_DATA_DIR: runtime.dataDir, DYNAMODB_PORT: '9' });

    expect(code).toBe(1);
    expect(stderr).toBe(
      'error: Cannot reach DynamoDB at http://127.0.0.1:9. Is `npm start` running with DYNAMODB_PORT=9? Unset DYNAMODB_PORT to find it through its data folder instead.\n',
    );
  });

  it('names the data folder when no server runs on it', async () => {
    // Prepare
    const empty = await mkdtemp(join(tmpdir(), 'easel-admin-'));

    // Act
    const { code, stderr } = await bare(['list-keys', '--org', 'x', '--json'], { EASEL_DATA_DIR: empty });

    // Assess
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toEqual({
      code: 'not_running',
      error:
        `No \`npm start\` runs on the data folder ${empty} (it has no endpoints.json). Start one, or, if it runs with another data folder, ` +
        'give this command the same EASEL_DATA_DIR (or DYNAMODB_PORT, or DYNAMODB_ENDPOINT).',
    });
    await rm(empty, { recursive: true, force: true });
  });

  it('says the server recorded in the data folder has stopped when its process is gone', async () => {
    // Prepare: the record a killed server leaves behind
    const stale = await mkdtemp(join(tmpdir(), 'easel-admin-'));
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    await writeFile(
      join(stale, 'endpoints.json'),
      JSON.stringify({ pid: gone.pid, url: 'http://127.0.0.1:9', dynamodb: 'http://127.0.0.1:9', workspaceTable: 'easel-workspace' }),
    );

    // Act
    const { code, stderr } = await bare(['list-keys', '--org', 'x'], { EASEL_DATA_DIR: stale });

    // Assess
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: The \`npm start\` recorded in ${join(stale, 'endpoints.json')} (pid ${gone.pid}) is no longer running. Start it again, ` +
        'or, if it runs with another data folder, give this command the same EASEL_DATA_DIR (or DYNAMODB_PORT, or DYNAMODB_ENDPOINT).\n',
    );
    await rm(stale, { recursive: true, force: true });
  });
});

describe('demo seed of npm start', () => {
  it('seeds a pro organization once and issues working credentials, retiring the previous ones on the next start', async () => {
    // Act
    const first = await seedDemo(db.store);
    const second = await seedDemo(db.store);

    // Assess: the second start's credentials work
    expect(second).toMatchObject({ organizationId: DEMO.organizationId, plan: 'pro', apiKey: expect.stringMatching(/^easel_sk_/) });
    const cookie = `easel.session_token=${second.sessionToken}`;
    const bootstrap = await get('/api/v1/bootstrap', { cookie });
    expect(bootstrap.status).toBe(200);
    expect(bootstrap.body).toMatchObject({
      organization: { id: DEMO.organizationId, name: DEMO.name },
      membership: { role: 'owner' },
      entitlements: { plan: 'pro' },
      counters: { members: 2, pendingInvitations: 1, activeApiKeys: 1, productSurfaces: 2 },
    });
    expect((await get(`/api/v1/organizations/${DEMO.organizationId}/members`, { cookie })).status).toBe(200);

    // Assess: the first start's are retired
    expect((await get('/api/v1/me', { cookie: `easel.session_token=${first.sessionToken}` })).status).toBe(401);
    const keys = await db.store.listApiKeys(DEMO.organizationId);
    expect(keys.find((key) => key.keyId === first.keyId)?.revokedAt).toEqual(expect.any(String));
    expect(keys.find((key) => key.keyId === second.keyId)?.revokedAt).toBeUndefined();
  });
});
