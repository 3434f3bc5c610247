/** A signed-in owner for the editor suites: a user, their pro organization and a session, made in the runtime's tables. */
import type { BrowserContext } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import * as admin from '#shared/services/identity-admin.ts';
import { connect, type Connection } from '#infra/admin/connection.ts';
import type { TestRuntime } from '../../support/local.ts';

export interface Owner {
  email: string;
  name: string;
  organization: string;
}

/**
 * Registers the hooks, after useEditorSuite's: before all, the owner and a session of theirs; after
 * all, the connection closed. `signIn` gives a context the session's cookie, as signing in would.
 */
export function useOwnerSession(runtime: () => TestRuntime, owner: Owner) {
  let db: Connection | undefined;
  let token = '';
  beforeAll(async () => {
    db = connect(runtime().env);
    const deps = { store: db.store };
    await admin.createUser(deps, { email: owner.email, name: owner.name });
    const { organization } = await admin.createOrganization(deps, { name: owner.organization, plan: 'pro', ownerUserId: owner.email });
    token = (await admin.createSession(deps, { user: owner.email, organizationId: organization.organizationId })).token;
  });
  afterAll(() => db?.close());
  return {
    token: () => token,
    signIn: (context: BrowserContext) =>
      context.setCookie({ name: 'easel.session_token', value: token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' }),
  };
}
