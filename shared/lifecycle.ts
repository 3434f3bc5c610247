/** Clean-ups the local runtime runs on stop, so a handler's browser does not outlive it; Lambda never calls this. */
import { log, serializeError } from '#shared/log.ts';

const hooks = new Set<() => Promise<void>>();

export function onShutdown(hook: () => Promise<void>): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/** Runs every registered clean-up once, in parallel; failures are logged, not thrown. */
export async function shutdown(): Promise<void> {
  const pending = [...hooks];
  hooks.clear();
  await Promise.all(pending.map((hook) => hook().catch((error: unknown) => log.warn('shutdown hook failed', { error: serializeError(error) }))));
}
