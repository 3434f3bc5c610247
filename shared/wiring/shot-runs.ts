/** What starting a run of shots takes: the stores, the shot queue and the quota's limiter. */
import { config } from '#shared/config.ts';
import type { ShotRunDeps } from '#shared/services/shots/runs.ts';
import { ShotQueue } from '#shared/store/shot-queue.ts';
import { rateTableLimiter } from '#shared/wiring/rate-limit.ts';
import { shotStores } from '#shared/wiring/release-shots.ts';
import { sqs } from '#shared/wiring/sqs.ts';

let deps: ShotRunDeps | undefined;

export function shotRunDeps(): ShotRunDeps {
  deps ??= {
    ...shotStores(),
    queue: new ShotQueue({ sqs, queueUrl: config().queues.shots }),
    limiter: rateTableLimiter(),
    publicBaseUrl: config().publicBaseUrl,
  };
  return deps;
}
