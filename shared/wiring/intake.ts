/** What taking in a release takes: the release store, and starting a run of its shots. */
import type { IntakeDeps } from '#shared/services/intake/intake.ts';
import { shotStores } from '#shared/wiring/release-shots.ts';
import { shotRunDeps } from '#shared/wiring/shot-runs.ts';

let deps: IntakeDeps | undefined;

export const intakeDeps = (): IntakeDeps => (deps ??= { releases: shotStores().releases, shots: shotRunDeps() });
