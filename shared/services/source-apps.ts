import { randomUUID } from 'node:crypto';
import type { SourceApp, SourceAppCreate } from '#shared/schemas/source-apps.ts';
import type { SourceAppStore } from '#shared/store/source-apps.ts';

export interface SourceAppDeps {
  sourceApps: Pick<SourceAppStore, 'create'>;
  now?: () => Date;
}

export async function createSourceApp(deps: SourceAppDeps, input: { workspaceId: string; organizationId: string; body: SourceAppCreate }): Promise<SourceApp> {
  // The schema has already defaulted provider to generic.
  const app: SourceApp = { id: randomUUID(), ...input.body, createdAt: (deps.now?.() ?? new Date()).toISOString() };
  await deps.sourceApps.create({ workspaceId: input.workspaceId, organizationId: input.organizationId }, app);
  return app;
}

/** Scheme, host and port; undefined for what is not a URL. */
export function originOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).origin : undefined;
}

/** Whether the URL's origin is one of the app's allowedHosts (each read as an origin, its path ignored). */
export function allowsOrigin(app: Pick<SourceApp, 'allowedHosts'>, url: string): boolean {
  const origin = originOf(url);
  return origin !== undefined && origin !== 'null' && app.allowedHosts.some((host) => originOf(host) === origin);
}
