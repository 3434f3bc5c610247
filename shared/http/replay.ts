/** Hands the idempotency middleware's stored answer to route() to send instead of running the function; apart, so other routes do not bundle its store. */
import type { Reply } from '#shared/http/reply.ts';
import type { LambdaContext } from '#shared/route-types.ts';

/** Marks an answer sent again for a repeated Idempotency-Key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

type WithReplay = LambdaContext & { replay?: Reply };

export function setReplay(request: { context: LambdaContext }, answer: Reply): void {
  (request.context as WithReplay).replay = answer;
}

/** The answer to send again, when this request repeats an earlier one. */
export function replayOf(context: LambdaContext): Reply | undefined {
  return (context as WithReplay).replay;
}
