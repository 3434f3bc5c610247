/** The commands of `npm run admin`: each returns data for --json and lines for a person. */
import { readFileSync } from 'node:fs';
import { InvalidRequestError } from '#shared/errors.ts';
import { HOST_SESSION_COOKIE, SESSION_COOKIE, sessionSetCookie } from '#shared/http/cookies.ts';
import { API_KEY_SCOPES } from '#shared/identity/permissions.ts';
import type { Role, Scope } from '#shared/identity/permissions.ts';
import type { EntitlementStatus, Feature, Plan } from '#shared/identity/plans.ts';
import {
  addMember,
  createOrganization,
  createProductSurface,
  createSession,
  createUser,
  deleteOrganization,
  endSessions,
  indexInvitations,
  invite,
  issueApiKey,
  listApiKeys,
  revokeApiKey,
  revokeInvitation,
  setPlan,
} from '#shared/services/identity-admin.ts';
import { join } from 'node:path';
import { dataDirFrom } from '#infra/local/endpoints-file.ts';
import { OUTBOX_FILE } from '#infra/local/environment.ts';
import { readOutbox } from '#infra/local/outbox.ts';
import type { AdminDeps } from '#shared/services/identity-admin.ts';
import { parseSourceSecret } from '#shared/schemas/source-secret.ts';
import { localSecrets, writeLocalSecret } from '#shared/store/source-secrets.ts';
import { generateWebhookSecret } from '#shared/identity/webhooks.ts';
import { localSecretsDir } from '#infra/local/environment.ts';

type Values = Record<string, string | boolean | undefined>;
type OptionSpec = Record<string, { type: 'string' | 'boolean'; description: string; required?: boolean }>;

export interface CommandResult {
  data: unknown;
  lines: string[];
}

export interface Command {
  summary: string;
  options: OptionSpec;
  /** false: the command does not use the workspace table, so none is looked for. */
  table?: false;
  run(values: Values, deps: AdminDeps, env: NodeJS.ProcessEnv): Promise<CommandResult>;
}

const str = (values: Values, name: string): string | undefined => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
const list = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
const num = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new InvalidRequestError(`Invalid --${name}`, `--${name} must be a number (got ${value}).`);
  return parsed;
};

/** Both cookie names: the `__Host-` one over https, which no sibling subdomain can set (docs/identity.md). */
function cookieLines(token: string, expiresAt: number): string[] {
  const maxAge = expiresAt - Math.floor(Date.now() / 1000);
  return [
    `  cookie:     ${SESSION_COOKIE}=${token}   (http, e.g. npm start)`,
    `              ${HOST_SESSION_COOKIE}=${token}   (https, a deployed stack)`,
    `  curl:       curl -b '${SESSION_COOKIE}=${token}' …`,
    `  Set-Cookie: ${sessionSetCookie(token, { maxAgeSeconds: maxAge, secure: false })}`,
    `  Set-Cookie: ${sessionSetCookie(token, { maxAgeSeconds: maxAge, secure: true })}   (over https)`,
  ];
}

export const COMMANDS: Record<string, Command> = {
  'create-user': {
    summary: 'Create a user.',
    options: {
      email: { type: 'string', description: 'E-mail address (unique).', required: true },
      name: { type: 'string', description: 'Display name.', required: true },
      'avatar-url': { type: 'string', description: 'Avatar image URL.' },
    },
    async run(values, deps) {
      const user = await createUser(deps, { email: str(values, 'email')!, name: str(values, 'name')!, avatarUrl: str(values, 'avatar-url') });
      return { data: { user }, lines: [`user ${user.userId}  ${user.name} <${user.email}>`] };
    },
  },
  'create-org': {
    summary: 'Create an organization with its workspace, optionally with an owner.',
    options: {
      name: { type: 'string', description: 'Organization name.', required: true },
      plan: { type: 'string', description: 'free, pro, business or enterprise (default free).' },
      status: { type: 'string', description: 'active, trialing, past_due or canceled (default active).' },
      owner: { type: 'string', description: 'User id or e-mail of the owner.' },
      locale: { type: 'string', description: 'Workspace locale, e.g. en-US.' },
      'time-zone': { type: 'string', description: 'Workspace time zone, e.g. Europe/Paris.' },
      'publishing-time': { type: 'string', description: 'Default publishing time, HH:MM.' },
      description: { type: 'string', description: 'Workspace description.' },
    },
    async run(values, deps) {
      const settings = Object.fromEntries(
        Object.entries({
          locale: str(values, 'locale'),
          timeZone: str(values, 'time-zone'),
          defaultPublishingTime: str(values, 'publishing-time'),
          description: str(values, 'description'),
        }).filter(([, value]) => value !== undefined),
      );
      const result = await createOrganization(deps, {
        name: str(values, 'name')!,
        plan: (str(values, 'plan') ?? 'free') as Plan,
        status: str(values, 'status') as EntitlementStatus | undefined,
        ownerUserId: str(values, 'owner'),
        settings,
      });
      const { organization, workspace } = result;
      return {
        data: result,
        lines: [
          `organization ${organization.organizationId}  ${organization.name}  plan ${organization.entitlement.plan} (${organization.entitlement.status})`,
          `workspace    ${workspace.workspaceId}`,
          ...(result.membership ? [`owner        ${result.membership.userId}`] : []),
        ],
      };
    },
  },
  'set-plan': {
    summary: "Change an organization's plan, billing status or extra features.",
    options: {
      org: { type: 'string', description: 'Organization id.', required: true },
      plan: { type: 'string', description: 'free, pro, business or enterprise.' },
      status: { type: 'string', description: 'active, trialing, past_due or canceled.' },
      features: { type: 'string', description: 'Comma-separated features granted on top of the plan.' },
    },
    async run(values, deps) {
      const entitlement = await setPlan(deps, {
        organizationId: str(values, 'org')!,
        plan: str(values, 'plan') as Plan | undefined,
        status: str(values, 'status') as EntitlementStatus | undefined,
        features: list(str(values, 'features')) as Feature[] | undefined,
      });
      return {
        data: { entitlement },
        lines: [`plan ${entitlement.plan} (${entitlement.status})${entitlement.features.length ? `, extra features ${entitlement.features.join(', ')}` : ''}`],
      };
    },
  },
  'delete-org': {
    summary: 'Mark an organization deleted (or --pending deletion) and revoke its keys.',
    options: {
      org: { type: 'string', description: 'Organization id.', required: true },
      pending: { type: 'boolean', description: 'Deletion requested but not yet done.' },
    },
    async run(values, deps) {
      const state = values.pending ? 'pending' : 'deleted';
      await deleteOrganization(deps, { organizationId: str(values, 'org')!, state });
      return {
        data: { organizationId: str(values, 'org'), deletionState: state },
        lines: [`organization ${str(values, 'org')} is ${state}; its keys are revoked`],
      };
    },
  },
  'add-member': {
    summary: 'Add a user to an organization with a role.',
    options: {
      org: { type: 'string', description: 'Organization id.', required: true },
      user: { type: 'string', description: 'User id or e-mail.', required: true },
      role: { type: 'string', description: 'owner, admin or member.', required: true },
    },
    async run(values, deps) {
      const membership = await addMember(deps, { organizationId: str(values, 'org')!, user: str(values, 'user')!, role: str(values, 'role') as Role });
      return { data: { membership }, lines: [`${membership.userId} is ${membership.role} of ${membership.organizationId}`] };
    },
  },
  invite: {
    summary: 'Invite an e-mail address to an organization.',
    options: {
      org: { type: 'string', description: 'Organization id.', required: true },
      email: { type: 'string', description: 'E-mail address to invite.', required: true },
      role: { type: 'string', description: 'owner, admin or member (default member).' },
      'invited-by': { type: 'string', description: 'User id or e-mail of the inviter.' },
      days: { type: 'string', description: 'Days until the invitation expires (default 7).' },
    },
    async run(values, deps) {
      const invitation = await invite(deps, {
        organizationId: str(values, 'org')!,
        email: str(values, 'email')!,
        role: (str(values, 'role') ?? 'member') as Role,
        invitedBy: str(values, 'invited-by'),
        days: num(str(values, 'days'), 'days'),
      });
      return {
        data: { invitation },
        lines: [
          `invitation ${invitation.invitationId}  ${invitation.email} as ${invitation.role}, expires ${new Date(invitation.expiresAt * 1000).toISOString()}`,
        ],
      };
    },
  },
  'revoke-invitation': {
    summary: 'Revoke a pending invitation.',
    options: {
      org: { type: 'string', description: 'Organization id.', required: true },
      invitation: { type: 'string', description: 'Invitation id (inv_…).', required: true },
    },
    async run(values, deps) {
      await revokeInvitation(deps, { organizationId: str(values, 'org')!, invitationId: str(values, 'invitation')! });
      return { data: { revoked: str(values, 'invitation') }, lines: [`invitation ${str(values, 'invitation')} revoked`] };
    },
  },
  'index-invitations': {
    summary: 'File every invitation under its address, where sign-in finds it; for invitations made before sign-in (safe to repeat).',
    options: {},
    async run(_values, deps) {
      const indexed = await indexInvitations(deps);
      return {
        data: { indexed },
        lines: [
          `${indexed.length} invitation(s) indexed by address`,
          ...indexed.map((invitation) => `  ${invitation.invitationId}  ${invitation.organizationId}  ${invitation.email}  ${invitation.status}`),
        ],
      };
    },
  },
  outbox: {
    summary: 'List the sign-in mail of the local outbox (npm start without EMAIL_FROM), newest last.',
    options: {
      to: { type: 'string', description: 'Only the messages to this address.' },
      last: { type: 'string', description: 'How many messages to show (default 10).' },
    },
    async run(values, _deps, env) {
      const file = env.EMAIL_OUTBOX?.trim() || join(dataDirFrom(env), OUTBOX_FILE);
      const to = str(values, 'to')?.trim().toLowerCase();
      const messages = readOutbox(file)
        .filter((message) => to === undefined || message.to === to)
        .slice(-(num(str(values, 'last'), 'last') ?? 10));
      return {
        data: { file, messages },
        lines: messages.length === 0 ? [`no messages in ${file}`] : messages.map((message) => `${message.at}  ${message.to}  ${message.subject}`),
      };
    },
  },
  'create-key': {
    summary: 'Issue an organization API key (printed once).',
    options: {
      org: { type: 'string', description: 'Organization id.', required: true },
      name: { type: 'string', description: 'What the key is for (default "API key").' },
      scopes: { type: 'string', description: `Comma-separated scopes (default all: ${API_KEY_SCOPES.join(',')}).` },
      'created-by': { type: 'string', description: 'Who asked for it (default admin-cli).' },
    },
    async run(values, deps) {
      const { key, apiKey } = await issueApiKey(deps, {
        organizationId: str(values, 'org')!,
        name: str(values, 'name') ?? 'API key',
        scopes: list(str(values, 'scopes')) as Scope[] | undefined,
        createdBy: str(values, 'created-by'),
      });
      return {
        data: { key, apiKey },
        lines: [
          `key ${apiKey.keyId}  "${apiKey.name}"  scopes ${apiKey.scopes.join(', ')}`,
          `  secret: ${key}`,
          '  This is the only time the key is shown; only its SHA-256 hash is stored.',
          `  curl:   curl -H 'X-API-Key: ${key}' …`,
        ],
      };
    },
  },
  'list-keys': {
    summary: "List an organization's API keys (never the secrets).",
    options: { org: { type: 'string', description: 'Organization id.', required: true } },
    async run(values, deps) {
      const keys = await listApiKeys(deps, { organizationId: str(values, 'org')! });
      return {
        data: { keys },
        lines:
          keys.length === 0
            ? ['no keys']
            : keys.map(
                (key) =>
                  `${key.keyId}  ${key.revokedAt ? `revoked ${key.revokedAt}` : 'active'}  "${key.name}"  scopes ${key.scopes.join(',')}  created ${key.createdAt} by ${key.createdBy}  last used ${key.lastUsedAt ?? 'never'}`,
              ),
      };
    },
  },
  'revoke-key': {
    summary: 'Revoke an API key by id (with --org), or by the secret (--key).',
    options: {
      org: { type: 'string', description: 'Organization id (with --key-id).' },
      'key-id': { type: 'string', description: 'Key id, as list-keys shows it.' },
      key: { type: 'string', description: 'The secret itself, when the id is unknown.' },
    },
    async run(values, deps) {
      const secret = str(values, 'key');
      const org = str(values, 'org');
      const keyId = str(values, 'key-id');
      if (!secret && !(org && keyId)) throw new InvalidRequestError('Which key?', 'Give --org and --key-id, or --key with the secret.');
      const apiKey = await revokeApiKey(deps, secret ? { key: secret } : { organizationId: org!, keyId: keyId! });
      return { data: { apiKey }, lines: [`key ${apiKey.keyId} revoked at ${apiKey.revokedAt}; refused everywhere within 10 s`] };
    },
  },
  'create-session': {
    summary: 'Sign a user in: create a session and print its cookie.',
    options: {
      user: { type: 'string', description: 'User id or e-mail.', required: true },
      org: { type: 'string', description: 'Organization to make active (default the first of the user).' },
      hours: { type: 'string', description: 'Lifetime in hours (default SESSION_HOURS or 168).' },
    },
    async run(values, deps, env) {
      const { token, session } = await createSession(deps, {
        user: str(values, 'user')!,
        organizationId: str(values, 'org'),
        hours: num(str(values, 'hours') ?? env.SESSION_HOURS, 'hours'),
      });
      return {
        data: { token, cookie: `${SESSION_COOKIE}=${token}`, httpsCookie: `${HOST_SESSION_COOKIE}=${token}`, session },
        lines: [
          `session ${session.sessionId} for ${session.userId}, active organization ${session.activeOrganizationId ?? 'none'}, expires ${new Date(session.expiresAt * 1000).toISOString()}`,
          ...cookieLines(token, session.expiresAt),
          '  This is the only time the token is shown; only its SHA-256 hash is stored.',
        ],
      };
    },
  },
  'end-sessions': {
    summary: 'End every session of a user (sign out everywhere).',
    options: { user: { type: 'string', description: 'User id or e-mail.', required: true } },
    async run(values, deps) {
      const ended = await endSessions(deps, { user: str(values, 'user')! });
      return { data: { ended }, lines: [`${ended} session(s) ended`] };
    },
  },
  'put-secret': {
    summary: "Store a source app's secret (its login for shots, its webhook key) in the local secret store of the data folder.",
    table: false,
    options: {
      name: { type: 'string', description: "The source app's secretReference.", required: true },
      file: { type: 'string', description: 'A JSON file { "headers"?: {…}, "cookies"?: […], "webhookSecret"?: "…" }; - reads standard input.', required: true },
    },
    async run(values, _deps, env) {
      const name = str(values, 'name')!;
      const file = str(values, 'file')!;
      const text = readFileSync(file === '-' ? 0 : file, 'utf8');
      const parsed = parseSourceSecret(text);
      if ('invalid' in parsed) throw new InvalidRequestError('Invalid secret', `${parsed.invalid} is not valid: see docs/shots.md, "Behind a login".`);
      const dir = localSecretsDir(dataDirFrom(env));
      await writeLocalSecret(dir, name, text);
      return { data: { name, store: dir }, lines: [`secret ${name} stored in ${dir} (readable by you only; it is never printed)`] };
    },
  },
  'new-webhook-secret': {
    summary: 'Make a fresh webhook signing secret (whsec_…); with --name, also store it as the webhookSecret of that local secret.',
    table: false,
    options: {
      name: { type: 'string', description: "The source app's secretReference: its headers and cookies are kept, its webhookSecret replaced." },
    },
    async run(values, _deps, env) {
      const webhookSecret = generateWebhookSecret();
      const name = str(values, 'name');
      if (name === undefined) return { data: { webhookSecret }, lines: [webhookSecret] };
      const dir = localSecretsDir(dataDirFrom(env));
      const text = await localSecrets(dir).read(name);
      const parsed = text === undefined ? { secret: {} } : parseSourceSecret(text);
      if ('invalid' in parsed)
        throw new InvalidRequestError('Invalid secret', `The stored secret ${name}: ${parsed.invalid} is not valid; store it whole with put-secret.`);
      await writeLocalSecret(dir, name, JSON.stringify({ ...parsed.secret, webhookSecret }));
      return {
        data: { name, store: dir, webhookSecret },
        lines: [
          webhookSecret,
          `  stored as the webhookSecret of ${name} in ${dir}; give it to the sender (GitHub's webhook "Secret") now: it is not shown again`,
        ],
      };
    },
  },
  'create-surface': {
    summary: 'Add a product surface to an organization’s workspace.',
    options: {
      org: { type: 'string', description: 'Organization id.', required: true },
      name: { type: 'string', description: 'Name, e.g. "Web editor".', required: true },
      description: { type: 'string', description: 'What it is.' },
    },
    async run(values, deps) {
      const surface = await createProductSurface(deps, {
        organizationId: str(values, 'org')!,
        name: str(values, 'name')!,
        description: str(values, 'description'),
      });
      return { data: { productSurface: surface }, lines: [`product surface ${surface.productSurfaceId}  ${surface.name}`] };
    },
  },
};
