import { randomUUID } from 'node:crypto';
import type { SourceApp, SourceAppCreate } from '#shared/schemas/source-apps.ts';
import type { SourceAppStore } from '#shared/store/source-apps.ts';

export interface SourceAppDeps {
  sourceApps: SourceAppStore;
  now?: () => Date;
}

export async function createSourceApp(deps: SourceAppDeps, input: { workspaceId: string; body: SourceAppCreate }): Promise<SourceApp> {
  // The schema has already defaulted provider to generic.
  const app: SourceApp = { id: randomUUID(), ...input.body, createdAt: (deps.now?.() ?? new Date()).toISOString() };
  await deps.sourceApps.create(input.workspaceId, app);
  return app;
}
