import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '#shared/identity/credentials.ts';
import { createSession, createUser, issueApiKey, revokeApiKey, setPlan } from '#shared/services/identity-admin.ts';
import { AlreadyExistsError } from '#shared/store/identity-items.ts';
import { identityStores } from '#shared/store/identity-stores.ts';
import { keys } from '#shared/store/keys.ts';
import { mockDynamo, stubbedDynamo } from '../support/mock-dynamo.ts';

const ddb = mockDynamo();
afterAll(() => ddb.restore());

const NOW = new Date('2026-03-01T10:00:00.000Z');
const store = identityStores({
  dynamo: stubbedDynamo(),
  table: 'workspace',
  now: () => NOW,
});
const deps = { store, now: () => NOW };
const ORG = {
  ...keys.organization('org_a'),
  organizationId: 'org_a',
  name: 'A',
  workspaceId: 'ws_a',
  entitlement: { plan: 'free', status: 'active', features: [] },
  deletionState: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
};

function puts(): Record<string, unknown>[] {
  return ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item as Record<string, unknown>);
}

beforeEach(() => {
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: keys.organization('org_a') }).resolves({ Item: ORG });
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(QueryCommand).resolves({ Items: [] });
});

describe('issueApiKey', () => {
  it('returns the key once and stores only its SHA-256 hash, keyed by it', async () => {
    // Act
    const { key, apiKey } = await issueApiKey(deps, { organizationId: 'org_a', name: 'ci', scopes: ['artifact:read'] });

    // Assess: the organization's reference to the key, then the key item
    const [reference, item] = puts();
    expect(reference).toEqual({ pk: 'ORG#org_a', sk: `KEYREF#${apiKey.keyId}`, keyId: apiKey.keyId, keyHash: hashSecret(key) });
    expect(item).toMatchObject({
      ...keys.apiKey(hashSecret(key)),
      gsi1pk: 'ORG#org_a',
      gsi1sk: `APIKEY#${apiKey.keyId}`,
      keyHash: hashSecret(key),
      organizationId: 'org_a',
      workspaceId: 'ws_a',
      scopes: ['artifact:read'],
      entitlement: ORG.entitlement,
      createdBy: 'admin-cli',
      createdAt: NOW.toISOString(),
    });
    expect(JSON.stringify(item)).not.toContain(key);
    expect(JSON.stringify(item)).not.toContain(key.slice('easel_sk_'.length, 20));
    for (const call of ddb.commandCalls(PutCommand)) expect(call.args[0].input.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(apiKey).not.toHaveProperty('keyHash');
  });

  it('defaults to every workspace scope', async () => {
    const { apiKey } = await issueApiKey(deps, { organizationId: 'org_a', name: 'all' });
    expect(apiKey.scopes).toEqual(['artifact:read', 'release:create', 'release:capture', 'source:write', 'upload:sign', 'asset:write']);
  });

  it.each([[['member:read']], [['nope']], [[]]])('refuses the scopes %j with 400', async (scopes) => {
    await expect(issueApiKey(deps, { organizationId: 'org_a', name: 'x', scopes: scopes as never })).rejects.toMatchObject({ status: 400 });
    expect(puts()).toHaveLength(0);
  });

  it('refuses an unknown organization with 404', async () => {
    await expect(issueApiKey(deps, { organizationId: 'org_zzz', name: 'x' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('createSession', () => {
  it('stores only the token hash, with an expiry in epoch seconds and the active organization', async () => {
    // Prepare
    ddb
      .on(GetCommand, { Key: keys.user('usr_1') })
      .resolves({ Item: { ...keys.user('usr_1'), userId: 'usr_1', email: 'a@example.com', name: 'A', createdAt: NOW.toISOString() } });
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        workspace: [
          ORG,
          {
            ...keys.membership('org_a', 'usr_1'),
            organizationId: 'org_a',
            workspaceId: 'ws_a',
            userId: 'usr_1',
            role: 'member',
            createdAt: NOW.toISOString(),
          },
        ],
      },
    });

    // Act
    const { token, session } = await createSession(deps, { user: 'usr_1', organizationId: 'org_a', hours: 2 });

    // Assess
    const [item] = puts();
    expect(item).toMatchObject({
      ...keys.session(hashSecret(token)),
      tokenHash: hashSecret(token),
      userId: 'usr_1',
      activeOrganizationId: 'org_a',
      expiresAt: NOW.getTime() / 1000 + 7200,
    });
    expect(JSON.stringify(item)).not.toContain(token);
    expect(session).not.toHaveProperty('tokenHash');
  });
});

describe('createUser', () => {
  it('claims the lower-cased e-mail first, so no two users share it', async () => {
    await createUser(deps, { email: 'Ada@Example.com', name: 'Ada' });

    const [claim, user] = puts();
    expect(claim).toMatchObject({ pk: 'EMAIL#ada@example.com', sk: 'USER' });
    expect(user).toMatchObject({ sk: 'PROFILE', email: 'ada@example.com', name: 'Ada' });
  });

  it('answers a taken e-mail with a conflict and writes no user', async () => {
    ddb.on(PutCommand).rejectsOnce(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));

    await expect(createUser(deps, { email: 'ada@example.com', name: 'Ada' })).rejects.toBeInstanceOf(AlreadyExistsError);
    expect(puts()).toHaveLength(1);
  });
});

describe('setPlan', () => {
  it('updates the organization, then copies the entitlement to each of its keys', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [
        {
          keyId: 'key_1',
          keyHash: 'h1',
          organizationId: 'org_a',
          workspaceId: 'ws_a',
          name: 'a',
          scopes: ['artifact:read'],
          entitlement: ORG.entitlement,
          createdBy: 't',
          createdAt: 'x',
        },
        {
          keyId: 'key_2',
          keyHash: 'h2',
          organizationId: 'org_a',
          workspaceId: 'ws_a',
          name: 'b',
          scopes: ['artifact:read'],
          entitlement: ORG.entitlement,
          createdBy: 't',
          createdAt: 'y',
        },
      ],
    });

    const entitlement = await setPlan(deps, { organizationId: 'org_a', plan: 'business' });

    expect(entitlement).toEqual({ plan: 'business', status: 'active', features: [] });
    const updated = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key);
    expect(updated[0]).toEqual(keys.organization('org_a'));
    expect(updated.slice(1)).toEqual(expect.arrayContaining([keys.apiKey('h1'), keys.apiKey('h2')]));
    expect(updated).toHaveLength(3);
  });
});

describe('revokeApiKey', () => {
  it('finds the key by id within the organization and keeps the first revocation time', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [
        {
          keyId: 'key_1',
          keyHash: 'h1',
          organizationId: 'org_a',
          workspaceId: 'ws_a',
          name: 'a',
          scopes: ['artifact:read'],
          entitlement: ORG.entitlement,
          createdBy: 't',
          createdAt: 'x',
        },
      ],
    });

    const revoked = await revokeApiKey(deps, { organizationId: 'org_a', keyId: 'key_1' });

    expect(revoked).toMatchObject({ keyId: 'key_1', revokedAt: NOW.toISOString() });
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.apiKey('h1'),
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
    });
  });

  it('answers 404 for a key id the organization does not have', async () => {
    await expect(revokeApiKey(deps, { organizationId: 'org_a', keyId: 'key_zzz' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('IdentityStore reads', () => {
  it('reads an expired session as absent, whatever the table still holds', async () => {
    ddb.on(GetCommand, { Key: keys.session('h') }).resolves({
      Item: { ...keys.session('h'), sessionId: 's', tokenHash: 'h', userId: 'u', createdAt: 'x', expiresAt: NOW.getTime() / 1000 - 1, origin: 't' },
    });
    await expect(store.getSession('h')).resolves.toBeUndefined();
  });

  it('reads a key by its hash with one strongly consistent GetItem', async () => {
    await store.getApiKey('abc');
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([{ TableName: 'workspace', Key: keys.apiKey('abc'), ConsistentRead: true }]);
  });

  describe('when DynamoDB keeps leaving a batch unprocessed', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers 503 after six attempts, backing off between them but not after the last', async () => {
      // Prepare: every BatchGetItem comes back with both keys unprocessed
      vi.useFakeTimers();
      ddb
        .on(BatchGetCommand)
        .callsFake((input: { RequestItems: Record<string, { Keys: unknown[] }> }) => ({ Responses: {}, UnprocessedKeys: input.RequestItems }));
      // Act
      const reading = store.getMemberContext('org_a', 'usr_1');
      const settled = reading.then(
        () => 'resolved',
        (error: unknown) => error,
      );
      // 100 + 200 + 400 + 800 + 1000 ms of back-off between the six attempts
      await vi.advanceTimersByTimeAsync(2500);
      // Assess
      expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(6);
      await expect(Promise.race([settled, Promise.resolve('pending')])).resolves.toMatchObject({ status: 503, code: 'upstream_unavailable' });
    });
  });

  describe('newest first', () => {
    // Times as the services write them (Date#toISOString): far apart, a millisecond apart, and equal.
    const times = [
      ...Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(1970, 0, 1) + ((i * 7_919_000_003_117) % 253_402_300_799_999)).toISOString()),
      '2026-03-01T10:00:00.000Z',
      '2026-03-01T10:00:00.001Z',
      '2026-03-01T10:00:00.010Z',
      '2026-03-01T09:59:59.999Z',
      '2026-03-01T10:00:00.000Z',
      '1999-12-31T23:59:59.999Z',
      '2000-01-01T00:00:00.000Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '2026-03-01T10:00:00.001Z',
    ];
    const byLocale = (ids: { createdAt: string; id: string }[]) => [...ids].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((item) => item.id);

    it('lists API keys in the order localeCompare gave, ties kept in table order', async () => {
      // Prepare
      const items = times.map((createdAt, i) => ({
        keyId: `key_${i}`,
        keyHash: `h${i}`,
        organizationId: 'org_a',
        workspaceId: 'ws_a',
        name: `k${i}`,
        scopes: [],
        entitlement: { plan: 'free', status: 'active', features: [] },
        createdBy: 'usr_1',
        createdAt,
      }));
      ddb.on(QueryCommand).resolves({ Items: items });
      // Act
      const listed = await store.listApiKeys('org_a');
      // Assess
      expect(listed.map((key) => key.keyId)).toEqual(byLocale(items.map((item) => ({ createdAt: item.createdAt, id: item.keyId }))));
    });

    it('lists invitations in the order localeCompare gave, ties kept in table order', async () => {
      // Prepare
      const expiresAt = NOW.getTime() / 1000 + 3600;
      const items = times.map((createdAt, i) => ({
        invitationId: `inv_${i}`,
        organizationId: 'org_a',
        email: `p${i}@example.com`,
        role: 'member',
        status: 'pending',
        createdAt,
        expiresAt,
      }));
      ddb.on(QueryCommand).resolves({ Items: items });
      // Act
      const listed = await store.listInvitations('org_a');
      // Assess
      expect(listed.map((invitation) => invitation.invitationId)).toEqual(
        byLocale(items.map((item) => ({ createdAt: item.createdAt, id: item.invitationId }))),
      );
    });
  });

  it('records the last use with a write that reads nothing back and never recreates a deleted key', async () => {
    await store.touchApiKey('abc', NOW.toISOString());
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: 'workspace',
      Key: keys.apiKey('abc'),
      UpdateExpression: 'SET lastUsedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': NOW.toISOString() },
    });
  });
});
