import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '#shared/services/identity-admin.ts';
import { hashSecret } from '#shared/identity/credentials.ts';
import type { ApiKeyRecord } from '#shared/schemas/identity.ts';
import type { IdentityStore } from '#shared/store/identity.ts';
import { connect, type Connection } from '#infra/admin/connection.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';

let runtime: TestRuntime;
let db: Connection;

beforeAll(async () => {
  runtime = await startTestRuntime();
  db = connect(runtime.env);
  await admin.createUser({ email: 'owner@example.com', name: 'Owner' }, { store: db.store });
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

/**
 * A store whose key write is interrupted, between the organization's reference and the key
 * itself, by another admin action: the interleaving a lagging index used to lose.
 */
function interrupted(store: IdentityStore, meanwhile: () => Promise<void>): IdentityStore {
  const interrupting = Object.create(store) as IdentityStore;
  interrupting.putApiKey = async (record: ApiKeyRecord) => {
    const putRef = (store as unknown as { create(item: object, what: string): Promise<void> }).create.bind(store);
    await putRef({ pk: `ORG#${record.organizationId}`, sk: `KEYREF#${record.keyId}`, keyId: record.keyId, keyHash: record.keyHash }, 'API key reference');
    await meanwhile();
    await putRef({ pk: `APIKEY#${record.keyHash}`, sk: 'APIKEY', ...record }, 'API key');
  };
  return interrupting;
}

describe('API keys and organization changes', () => {
  it('gives a key issued during a plan change the new plan', async () => {
    // Prepare
    const { organization } = await admin.createOrganization({ name: 'Upgrade', plan: 'free', ownerUserId: 'owner@example.com' }, { store: db.store });
    const store = interrupted(db.store, () => admin.setPlan({ organizationId: organization.organizationId, plan: 'pro' }, { store: db.store }).then(() => undefined));
    // Act
    const { key } = await admin.issueApiKey({ organizationId: organization.organizationId, name: 'racing' }, { store });
    // Assess
    const stored = await db.store.getApiKey(hashSecret(key));
    expect(stored?.entitlement.plan).toBe('pro');
  });

  it('revokes a key issued while its organization was being deleted', async () => {
    const { organization } = await admin.createOrganization({ name: 'Doomed', plan: 'pro', ownerUserId: 'owner@example.com' }, { store: db.store });
    const store = interrupted(db.store, () => admin.deleteOrganization({ organizationId: organization.organizationId }, { store: db.store }));
    const { key } = await admin.issueApiKey({ organizationId: organization.organizationId, name: 'racing' }, { store });
    expect((await db.store.getApiKey(hashSecret(key)))?.revokedAt).toEqual(expect.any(String));
  });

  it('copies a plan change to every key of the organization', async () => {
    const { organization } = await admin.createOrganization({ name: 'Many keys', plan: 'free', ownerUserId: 'owner@example.com' }, { store: db.store });
    const issued = await Promise.all([1, 2, 3].map((n) => admin.issueApiKey({ organizationId: organization.organizationId, name: `k${n}` }, { store: db.store })));
    await admin.setPlan({ organizationId: organization.organizationId, plan: 'business' }, { store: db.store });
    for (const { key } of issued) expect((await db.store.getApiKey(hashSecret(key)))?.entitlement.plan).toBe('business');
  });
});
