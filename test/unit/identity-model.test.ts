import { describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config.ts';
import { capabilitiesOf } from '#shared/identity/capabilities.ts';
import { API_KEY_SCOPES, PERMISSION_LIST, ROLES, permissionsOf } from '#shared/identity/permissions.ts';
import {
  ENTITLEMENT_EXTENSION,
  PLANS,
  QUOTAS,
  effectiveFeatures,
  effectivePlan,
  entitlementExtension,
  minimumPlanFor,
  planFeatures,
  quotaLimit,
  requiredFeatureOf,
} from '#shared/identity/plans.ts';
import { ROUTE_LIST } from '#shared/routes.ts';

describe('roles and permissions', () => {
  it('shares one vocabulary between roles and API-key scopes', () => {
    for (const scope of API_KEY_SCOPES) expect(PERMISSION_LIST).toContain(scope);
    for (const role of ROLES) for (const permission of permissionsOf(role)) expect(PERMISSION_LIST).toContain(permission);
  });

  it('holds the scopes and permissions of the contract', () => {
    expect(PERMISSION_LIST).toEqual(
      expect.arrayContaining(['artifact:read', 'release:create', 'source:write', 'upload:sign', 'asset:write', 'member:read', 'invitation:read']),
    );
  });

  it('orders roles by privilege: each role grants everything the next one does', () => {
    expect(permissionsOf('owner')).toEqual(expect.arrayContaining([...permissionsOf('admin')]));
    expect(permissionsOf('admin')).toEqual(expect.arrayContaining([...permissionsOf('member')]));
  });

  it('keeps the roster and the invitations from plain members', () => {
    expect(permissionsOf('member')).not.toContain('member:read');
    expect(permissionsOf('member')).not.toContain('invitation:read');
    expect(permissionsOf('admin')).toEqual(expect.arrayContaining(['member:read', 'invitation:read']));
  });

  it('gives billing and deletion to owners only', () => {
    expect(permissionsOf('owner')).toEqual(expect.arrayContaining(['billing:manage', 'organization:delete']));
    expect(permissionsOf('admin')).not.toContain('billing:manage');
    expect(permissionsOf('admin')).not.toContain('organization:delete');
  });

  it.each(ROUTE_LIST.filter((row) => row.permission).map((row) => [row.operationId, row.permission!] as const))(
    'names a permission of the vocabulary on %s',
    (_operationId, permission) => {
      expect(PERMISSION_LIST).toContain(permission);
    },
  );
});

describe('plans', () => {
  it('includes asset:delete from pro upwards', () => {
    expect(minimumPlanFor('asset:delete')).toBe('pro');
    expect(PLANS.map((plan) => planFeatures(plan).includes('asset:delete'))).toEqual([false, true, true, true]);
  });

  it('publishes a growing api:write:minute quota per plan', () => {
    const limits = PLANS.map((plan) => quotaLimit(plan, 'api:write:minute'));
    expect(limits).toEqual([30, 120, 600, 3000]);
    expect(QUOTAS['api:write:minute'].windowSeconds).toBe(60);
  });

  it.each([
    [{ plan: 'pro', status: 'active', features: [] }, 'pro', ['asset:delete', 'release:scheduling']],
    [{ plan: 'pro', status: 'past_due', features: [] }, 'pro', ['asset:delete', 'release:scheduling']],
    [{ plan: 'pro', status: 'canceled', features: [] }, 'free', []],
    [{ plan: 'enterprise', status: 'canceled', features: ['sso:saml'] }, 'free', []],
    [{ plan: 'free', status: 'active', features: ['sso:saml'] }, 'free', ['sso:saml']],
  ] as const)('resolves %j to plan %s with features %j', (entitlement, plan, features) => {
    const value = { ...entitlement, features: [...entitlement.features] };
    expect(effectivePlan(value)).toBe(plan);
    expect(effectiveFeatures(value)).toEqual(features);
  });

  it('builds the entitlement extension a route row declares, and reads its feature back', () => {
    const extensions = entitlementExtension('asset:delete', 'api:write:minute');
    expect(extensions).toEqual({ [ENTITLEMENT_EXTENSION]: { feature: 'asset:delete', minimumPlan: 'pro', quota: 'api:write:minute' } });
    expect(requiredFeatureOf({ extensions })).toBe('asset:delete');
    expect(requiredFeatureOf({})).toBeUndefined();
  });

  it('refuses a row whose entitlement extension names an unknown feature', () => {
    expect(() => requiredFeatureOf({ extensions: { [ENTITLEMENT_EXTENSION]: { feature: 'teleport' } } })).toThrow(/Unknown feature/);
  });
});

describe('capabilitiesOf', () => {
  it('needs both the permission and the feature', () => {
    const member = permissionsOf('member');
    expect(capabilitiesOf(member, planFeatures('free'))).toMatchObject({ canManageAssets: true, canDeleteAssets: false, canViewMembers: false });
    expect(capabilitiesOf(member, planFeatures('pro'))).toMatchObject({ canDeleteAssets: true, canUseSso: false });
    expect(capabilitiesOf(permissionsOf('owner'), planFeatures('enterprise'))).toMatchObject({ canUseSso: true, canManageBilling: true });
  });
});

describe('the shell rows of the route table', () => {
  const shell = ROUTE_LIST.filter((row) => row.tag === 'Shell');

  it('has the ten shell operations of the contract', () => {
    expect(shell.map((row) => `${row.method} ${row.path}`).sort()).toEqual(
      [
        'GET /api/v1/me',
        'GET /api/v1/bootstrap',
        'GET /api/v1/organizations',
        'GET /api/v1/organizations/{organizationId}',
        'GET /api/v1/organizations/{organizationId}/members',
        'GET /api/v1/organizations/{organizationId}/invitations',
        'GET /api/v1/organizations/{organizationId}/settings',
        'GET /api/v1/organizations/{organizationId}/permissions',
        'GET /api/v1/organizations/{organizationId}/capabilities',
        'POST /api/v1/organizations/{organizationId}/activate',
      ].sort(),
    );
  });

  it.each(shell.map((row) => [row.operationId, row] as const))('makes %s session-only with editor CORS', (_id, row) => {
    expect(row).toMatchObject({ auth: 'session', cors: 'editor', errors: [401, 403, 503] });
  });

  it.each(shell.map((row) => [row.operationId, row] as const))('grants %s only reads of the workspace table, unless it activates', (_id, row) => {
    const reads = ['GetItem', 'BatchGetItem', 'Query'];
    const expected = row.operationId === 'activateOrganization' ? [...reads, 'UpdateItem'] : reads;
    expect(row.access).toEqual({ tables: { workspace: expected } });
  });

  it('names member:read and invitation:read where the contract does', () => {
    expect(shell.find((row) => row.path.endsWith('/members'))?.permission).toBe('member:read');
    expect(shell.find((row) => row.path.endsWith('/invitations'))?.permission).toBe('invitation:read');
  });
});

describe('authenticated rows', () => {
  const authenticated = ROUTE_LIST.filter((row) => row.auth === 'apiKey' || row.auth === 'session');

  it.each(authenticated.map((row) => [row.operationId, row] as const))('lets %s read the workspace table, where credentials live', (_id, row) => {
    expect(row.access.tables?.workspace).toEqual(expect.arrayContaining(['GetItem', 'BatchGetItem']));
  });

  it.each(ROUTE_LIST.filter((row) => row.auth === 'apiKey').map((row) => [row.operationId, row] as const))(
    'lets %s stamp the key last-used time',
    (_id, row) => {
      expect(row.access.apiKeyStamp).toBe(true);
    },
  );

  it.each(ROUTE_LIST.filter((row) => row.auth !== 'apiKey').map((row) => [row.operationId, row] as const))(
    'gives %s no key last-used stamp: it never authenticates a key',
    (_id, row) => {
      expect(row.access.apiKeyStamp).toBeUndefined();
    },
  );
});

describe('AUTH_CACHE_TTL_MS', () => {
  const env = {
    PUBLIC_BASE_URL: 'http://easel.test',
    WORKSPACE_TABLE: 'w',
    CACHE_TABLE: 'c',
    RATE_TABLE: 'r',
    ASSETS_BUCKET: 'a',
    CACHE_BUCKET: 'b',
    DELETION_QUEUE_URL: 'q',
    MAIL_QUEUE_URL: 'm',
    SHOT_QUEUE_URL: 's',
    AWS_REGION: 'us-east-1',
  };

  it('defaults to the 10 s bound', () => {
    expect(parseConfig(env).authCacheTtlMs).toBe(10_000);
  });

  it('accepts 0 (no cache) up to 10000', () => {
    expect(parseConfig({ ...env, AUTH_CACHE_TTL_MS: '0' }).authCacheTtlMs).toBe(0);
    expect(parseConfig({ ...env, AUTH_CACHE_TTL_MS: '250' }).authCacheTtlMs).toBe(250);
  });

  it.each(['10001', '-1', 'soon', '1.5'])('fails the cold start on %j', (value) => {
    expect(() => parseConfig({ ...env, AUTH_CACHE_TTL_MS: value })).toThrow(/AUTH_CACHE_TTL_MS must be an integer from 0 to 10000/);
  });
});
