// First: Chromium unpacks from here on, while the modules below load.
import '#shared/wiring/chromium.ts';
import { config } from '#shared/config.ts';
import { QUEUES } from '#shared/resources.ts';
import { ShotMessage } from '#shared/schemas/shots.ts';
import { takeShot } from '#shared/services/shots/take-shot.ts';
import { batchHandler } from '#shared/sqs/batch.ts';
import { prelaunch, warmUp } from '#shared/wiring/capture.ts';
import { shotWorkerDeps } from '#shared/wiring/shot-worker.ts';

// As the capture function: a container made for a waiting message only launches Chromium.
const start = config().capture.prelaunch;
if (start === 'warm-up') await warmUp();
else if (start === 'launch') void prelaunch();

const deps = shotWorkerDeps();
const { maxReceiveCount } = QUEUES.shots.deadLetter;

/** Shot-queue worker: captures each queued shot of a release into the workspace and compares it with the previous release. */
export const handler = batchHandler({ name: 'release shot', body: ShotMessage }, async (message, delivery) => ({
  releaseId: message.releaseId,
  shot: message.name,
  runId: message.runId,
  receiveCount: delivery.receiveCount,
  ...(await takeShot(deps, message, { ...delivery, maxReceiveCount })),
}));
