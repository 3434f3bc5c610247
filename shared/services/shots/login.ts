/** A shot's login: the secret of the source app whose allowedHosts name its origin, sent to that origin only (capture/page-options.ts). */
import { InvalidRequestError, NotFoundError } from '#shared/errors.ts';
import type { SourceApp } from '#shared/schemas/source-apps.ts';
import { parseSourceSecret, type SourceAppSecret } from '#shared/schemas/source-secret.ts';
import type { CaptureCredentials } from '#shared/services/capture/options.ts';
import { allowsOrigin, originOf } from '#shared/services/source-apps.ts';
import type { SourceAppStore } from '#shared/store/source-apps.ts';
import type { SourceSecretStore } from '#shared/store/source-secrets.ts';

export interface LoginDeps {
  sourceApps: Pick<SourceAppStore, 'list'>;
  /** Undefined where no store is configured: a shot that needs a login then fails saying so. */
  secrets: SourceSecretStore | undefined;
}

export interface Login {
  sourceAppId: string;
  credentials: CaptureCredentials;
}

/** The app with a secret that lists this origin; the most recently registered when several do. */
export function loginAppFor(apps: readonly SourceApp[], url: string): SourceApp | undefined {
  return apps
    .filter((app) => app.secretReference && allowsOrigin(app, url))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))[0];
}

function secretOf(app: SourceApp, text: string): SourceAppSecret {
  const parsed = parseSourceSecret(text);
  if ('secret' in parsed) return parsed.secret;
  throw new InvalidRequestError(
    'Login secret unusable',
    `The secret ${app.secretReference} of source app ${app.name} (${app.id}) is not a JSON object { headers?, cookies?, webhookSecret? } as documented: ${parsed.invalid} is not valid. Store it again.`,
  );
}

/** The login for `url`, undefined when no source app with a secret lists its origin; a missing or unusable secret fails the shot. */
export async function loginFor(deps: LoginDeps, workspaceId: string, url: string): Promise<Login | undefined> {
  const app = loginAppFor(await deps.sourceApps.list(workspaceId), url);
  if (!app) return undefined;
  const reference = app.secretReference!;
  const text = deps.secrets ? await deps.secrets.read(reference) : undefined;
  if (text === undefined) {
    const where = deps.secrets ? deps.secrets.describe(reference) : 'a secret store, and none is configured here (SOURCE_SECRET_PREFIX or LOCAL_SECRETS_DIR)';
    throw new NotFoundError(
      'Login secret not found',
      `Source app ${app.name} (${app.id}) lists ${originOf(url)} and names the secret ${reference}, which is missing: put it in ${where}, then run the shot again.`,
    );
  }
  const secret = secretOf(app, text);
  const credentials: CaptureCredentials = {
    ...(secret.headers && Object.keys(secret.headers).length > 0 ? { headers: secret.headers } : {}),
    ...(secret.cookies?.length ? { cookies: secret.cookies } : {}),
  };
  // A secret with no login (only a webhook key, say) signs nothing in: the shot does not claim one.
  return Object.keys(credentials).length > 0 ? { sourceAppId: app.id, credentials } : undefined;
}
