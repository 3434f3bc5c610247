/** The DynamoDB calls of a code check against the embedded table: each of the address's records read once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '#infra/admin/connection.ts';
import { hashAddress, hashEmailCode } from '#shared/identity/credentials.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { verifyEmailCode } from '#shared/services/sign-in/email-codes.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';

let runtime: TestRuntime;
let db: Connection;
let organizationId = '';
const sent: string[] = [];

beforeAll(async () => {
  runtime = await startTestRuntime();
  db = connect(runtime.env);
  db.dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(context.commandName ?? 'unknown');
      return next(args);
    },
    { step: 'initialize', name: 'countCommands' },
  );
  const owner = await admin.createUser({ store: db.store }, { email: 'owner@reads.test', name: 'Owner' });
  ({
    organization: { organizationId },
  } = await admin.createOrganization({ store: db.store }, { name: 'Reads', plan: 'free', ownerUserId: owner.userId }));
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

/** The commands one code check sends, by name and count; the limiter is left out (it counts in the rate table). */
async function commandsOfCodeCheck(email: string): Promise<Record<string, number>> {
  const addressHash = hashAddress(email);
  const now = new Date();
  await db.store.putEmailCode({
    addressHash,
    codeHash: hashEmailCode(addressHash, '123456'),
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + 600,
  });
  sent.length = 0;
  const allowed = { allowed: true, limit: 10, remaining: 9, resetAt: 0, retryAfterSeconds: 1, counter: 'test' };
  await verifyEmailCode(
    {
      limiter: { consume: async () => allowed },
      codes: db.store,
      accounts: { store: db.store, allowSignUp: false },
      sessions: { store: db.store, sessionHours: 1 },
    },
    { email, code: '123456' },
  );
  return Object.fromEntries([...new Set(sent)].sort().map((name) => [name, sent.filter((one) => one === name).length]));
}

describe('a code check', () => {
  it('reads a member’s invitations and user once each', async () => {
    // Act
    const commands = await commandsOfCodeCheck('owner@reads.test');

    // Assess: the try and the use, the claim and the user, the invitations and memberships, the organizations, the session
    expect(commands).toEqual({ BatchGetItemCommand: 1, GetItemCommand: 2, PutItemCommand: 1, QueryCommand: 2, UpdateItemCommand: 2 });
  });

  it('reads an invited newcomer’s address claim once, and nothing back after writing the user', async () => {
    // Prepare
    await admin.invite({ store: db.store }, { organizationId, email: 'newcomer@reads.test', role: 'member' });

    // Act
    const commands = await commandsOfCodeCheck('newcomer@reads.test');

    // Assess: the try and the use, the claim, the claim, user and session written, the invitations and memberships, the invitation's organization
    expect(commands).toEqual({ BatchGetItemCommand: 1, GetItemCommand: 1, PutItemCommand: 3, QueryCommand: 2, UpdateItemCommand: 2 });
  });
});
