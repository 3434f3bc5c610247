/** One deadline per invocation, shortly before Lambda's time-out, for every `before` and the function: a slow dependency gets the envelope, not a bare 503. */
import type { HttpMiddleware } from '#shared/http/middleware-types.ts';
import type { LambdaContext } from '#shared/route-types.ts';

/** Kept back after the deadline for the error hooks, the envelope and the log and metric lines. */
export const DEADLINE_RESERVE_MS = 300;

export interface Deadline {
  readonly signal: AbortSignal;
  /** `work`'s outcome, or the deadline's error when it passes first. */
  race<T>(work: Promise<T>): Promise<T>;
}

const NONE: Deadline = { signal: new AbortController().signal, race: (work) => work };
const DEADLINE = Symbol('easel.deadline');

/** From the invocation's remaining time; a context without one (a direct call) gets none. */
export function startDeadline(context: LambdaContext, exceeded: () => Error): Deadline & { stop(): void } {
  const remaining = context.getRemainingTimeInMillis?.();
  if (remaining === undefined) return { ...NONE, stop: () => undefined };
  const controller = new AbortController();
  let fail: (error: Error) => void = () => undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  // Nobody may be racing when it passes.
  expired.catch(() => undefined);
  const timer = setTimeout(
    () => {
      const error = exceeded();
      controller.abort(error);
      fail(error);
    },
    Math.max(0, remaining - DEADLINE_RESERVE_MS),
  );
  const deadline: Deadline = { signal: controller.signal, race: (work) => Promise.race([work, expired]) };
  Object.assign(context, { [DEADLINE]: deadline });
  return { ...deadline, stop: () => clearTimeout(timer) };
}

export function deadlineOf(request: { context: LambdaContext }): Deadline {
  return (request.context as { [DEADLINE]?: Deadline })[DEADLINE] ?? NONE;
}

/** The middleware with its `before` raced against the deadline; its `after` and `onError` bound themselves. */
export function withinDeadline(middleware: HttpMiddleware): HttpMiddleware {
  const { before } = middleware;
  if (!before) return middleware;
  return {
    ...middleware,
    before: (request) => {
      const out = before(request);
      return out instanceof Promise ? deadlineOf(request).race(out) : out;
    },
  };
}
