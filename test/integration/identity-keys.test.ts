import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '#shared/services/identity-admin.ts';
import { hashSecret } from '#shared/identity/credentials.ts';
import type { ApiKeyRecord } from '#shared/schemas/identity.ts';
import { IdentityItems } from '#shared/store/identity-items.ts';
import type { IdentityStores } from '#shared/store/identity-stores.ts';
import { connect, type Connection } from '#infra/admin/connection.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';

let runtime: TestRuntime;
let db: Connection;

beforeAll(async () => {
  runtime = await startTestRuntime();
  db = connect(runtime.env);
  await admin.createUser({ store: db.store }, { email: 'owner@example.com', name: 'Owner' });
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

/**
 * A store whose key write is interrupted, between the organization's reference and the key
 * itself, by another admin action: the interleaving a lagging index used to lose.
 */
function interrupted(store: IdentityStores, meanwhile: () => Promise<void>): IdentityStores {
  const interrupting = Object.create(store) as IdentityStores;
  const items = new IdentityItems({ dynamo: db.dynamo, table: db.table });
  interrupting.putApiKey = async (record: ApiKeyRecord) => {
    const putRef = items.create.bind(items);
    await putRef({ pk: `ORG#${record.organizationId}`, sk: `KEYREF#${record.keyId}`, keyId: record.keyId, keyHash: record.keyHash }, 'API key reference');
    await meanwhile();
    await putRef({ pk: `APIKEY#${record.keyHash}`, sk: 'APIKEY', ...record }, 'API key');
  };
  return interrupting;
}

describe('API keys and organization changes', () => {
  it('gives a key issued during a plan change the new plan', async () => {
    // Prepare
    const { organization } = await admin.createOrganization({ store: db.store }, { name: 'Upgrade', plan: 'free', ownerUserId: 'owner@example.com' });
    const store = interrupted(db.store, () =>
      admin.setPlan({ store: db.store }, { organizationId: organization.organizationId, plan: 'pro' }).then(() => undefined),
    );
    // Act
    const { key } = await admin.issueApiKey({ store }, { organizationId: organization.organizationId, name: 'racing' });
    // Assess
    const stored = await db.store.getApiKey(hashSecret(key));
    expect(stored?.entitlement.plan).toBe('pro');
  });

  it('revokes a key issued while its organization was being deleted', async () => {
    const { organization } = await admin.createOrganization({ store: db.store }, { name: 'Doomed', plan: 'pro', ownerUserId: 'owner@example.com' });
    const store = interrupted(db.store, () => admin.deleteOrganization({ store: db.store }, { organizationId: organization.organizationId }));
    const { key } = await admin.issueApiKey({ store }, { organizationId: organization.organizationId, name: 'racing' });
    expect((await db.store.getApiKey(hashSecret(key)))?.revokedAt).toEqual(expect.any(String));
  });

  it('copies a plan change to every key of the organization', async () => {
    const { organization } = await admin.createOrganization({ store: db.store }, { name: 'Many keys', plan: 'free', ownerUserId: 'owner@example.com' });
    const issued = await Promise.all(
      [1, 2, 3].map((n) => admin.issueApiKey({ store: db.store }, { organizationId: organization.organizationId, name: `k${n}` })),
    );
    await admin.setPlan({ store: db.store }, { organizationId: organization.organizationId, plan: 'business' });
    for (const { key } of issued) expect((await db.store.getApiKey(hashSecret(key)))?.entitlement.plan).toBe('business');
  });
});
