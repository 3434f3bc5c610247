/**
 * The identity reference (roles, scopes, plans, credentials), generated from the tables the
 * auth middleware enforces so the docs cannot promise what the code denies.
 */
import { MAX_AUTH_CACHE_TTL_MS } from '#shared/config.ts';
import { API_KEY_HEADER, SESSION_COOKIE } from '#shared/docs/catalog.ts';
import { blocks, code, heading, table, text } from '#shared/docs/markdown.ts';
import { CAPABILITIES, CAPABILITY_LIST } from '#shared/identity/capabilities.ts';
import { API_KEY_SCOPES, PERMISSIONS, PERMISSION_LIST, ROLES, ROLE_DESCRIPTIONS, permissionsOf } from '#shared/identity/permissions.ts';
import { ENTITLEMENT_STATUSES, FEATURES, FEATURE_LIST, PLANS, QUOTAS, QUOTA_LIST, planFeatures, quotaWindowName } from '#shared/identity/plans.ts';

const YES = 'yes';
const NO = '—';

/** Roles → permissions, with which permissions an API key can hold as scopes. */
export function rolesSection(depth: number): string {
  const scopes = new Set<string>(API_KEY_SCOPES);
  return blocks(
    heading(depth, 'Roles and permissions', 'roles-and-permissions'),
    'A member of an organization has one role; the role resolves to permissions. API-key scopes come from the same vocabulary, so a session whose role grants `release:create` may call the operation a key needs the `release:create` scope for. Keys act for the organization, not a person: only the workspace permissions can be key scopes.',
    table(
      ['Role', 'What it is for'],
      ROLES.map((role) => [code(role), text(ROLE_DESCRIPTIONS[role])]),
    ),
    table(
      ['Permission', 'Allows', ...ROLES.map(code), 'API-key scope'],
      PERMISSION_LIST.map((permission) => [
        code(permission),
        text(PERMISSIONS[permission]),
        ...ROLES.map((role) => (permissionsOf(role).includes(permission) ? YES : NO)),
        scopes.has(permission) ? YES : NO,
      ]),
    ),
    heading(depth + 1, 'Capability flags', 'capabilities'),
    'Shell operations return these flags as rendering hints; each is true when the member holds the permission and the plan includes the feature. Every operation still checks on its own.',
    table(
      ['Flag', 'Needs permission', 'Needs feature'],
      CAPABILITY_LIST.map((flag) => {
        const rule: { permission?: string; feature?: string } = CAPABILITIES[flag];
        return [code(flag), rule.permission ? code(rule.permission) : NO, rule.feature ? code(rule.feature) : NO];
      }),
    ),
  );
}

/** Plans → features and quotas, and the billing states. */
export function plansSection(depth: number): string {
  return blocks(
    heading(depth, 'Plans, features and quotas', 'plans'),
    `Plans in ascending order: ${PLANS.map(code).join(' < ')}. A feature of a plan is included in every later plan. An operation that needs a feature the workspace's plan lacks answers 403 \`workspace_feature_not_entitled\` with \`currentPlan\`, \`requiredPlan\` and \`feature\`; one whose quota is used up answers 429 \`workspace_quota_exceeded\` with \`limit\` and \`quota\`.`,
    table(
      ['Feature', 'What it is', ...PLANS.map(code)],
      FEATURE_LIST.map((feature) => [
        code(feature),
        text(FEATURES[feature].description),
        ...PLANS.map((plan) => (planFeatures(plan).includes(feature) ? YES : NO)),
      ]),
    ),
    table(
      ['Quota', 'Counts', 'Window', ...PLANS.map(code)],
      QUOTA_LIST.map((quota) => [
        code(quota),
        text(QUOTAS[quota].description),
        quotaWindowName(quota),
        ...PLANS.map((plan) => String(QUOTAS[quota].limits[plan])),
      ]),
    ),
    `Billing status is one of ${ENTITLEMENT_STATUSES.map(code).join(', ')}. \`past_due\` keeps the plan during the grace period; \`canceled\` gets what \`free\` includes. Extra features can be granted to one organization on top of its plan.`,
  );
}

/** How API keys and sessions behave. */
export function credentialsSection(depth: number): string {
  const seconds = MAX_AUTH_CACHE_TTL_MS / 1000;
  return blocks(
    heading(depth, 'API keys and sessions', 'credentials'),
    [
      `- **API keys** look like \`easel_sk_\` followed by the base58 encoding of 24 random bytes (192 bits). A key is shown once, when it is issued, and stored only as its SHA-256 hash, with its scopes, organization, creator, creation and last-use times and revocation. Send it in \`${API_KEY_HEADER}\`. A revoked key is refused everywhere within ${seconds} s.`,
      `- **Sessions** travel in the \`${SESSION_COOKIE}\` cookie (\`HttpOnly\`, \`SameSite=Lax\`, \`Path=/\`). Over https it is issued as \`__Host-${SESSION_COOKIE}\` (\`Secure\`, no \`Domain\`), which no other subdomain can set: when present it alone counts; \`${SESSION_COOKIE}\` and \`__Secure-${SESSION_COOKIE}\` are accepted otherwise, and a request whose session cookies carry different tokens is refused with 401 rather than one of them picked. The token is random, stored only as its SHA-256 hash, and expires; an expired session gets 401. A session has an active organization: operations on \`/api/v1/organizations/{organizationId}\` act only on it, and \`POST …/activate\` switches to another organization the user is a member of.`,
      '- Issuing keys and signing in are not part of this API: operators use the admin command line.',
    ].join('\n'),
  );
}

export function identitySections(depth: number): string {
  return blocks(rolesSection(depth), plansSection(depth), credentialsSection(depth));
}
