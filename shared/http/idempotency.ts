/**
 * Idempotency-Key on a workspace POST: the first request with a key runs and its answer is kept
 * for 24 hours; a repeat with the same request gets that answer again with
 * `Idempotent-Replayed: true`, another request with the key is 400. Runs after auth (the key is
 * the workspace's) and before validation.
 */
import { createHash } from 'node:crypto';
import { InvalidRequestError, UpstreamUnavailableError } from '#shared/errors.ts';
import { fingerprint } from '#shared/fingerprint.ts';
import type { HttpMiddleware } from '#shared/http/middleware-types.ts';
import { principalOf } from '#shared/http/principals.ts';
import { REPLAYED_HEADER, setReplay } from '#shared/http/replay.ts';
import { isReply, reply } from '#shared/http/reply.ts';
import { parseWith } from '#shared/http/validation.ts';
import type { Principal } from '#shared/identity/principal.ts';
import type { LambdaEvent } from '#shared/route-types.ts';
import { IdempotencyKeyHeaders } from '#shared/schemas/common.ts';
import type { IdempotencyRecord, IdempotencySlot, IdempotencyStore } from '#shared/store/idempotency.ts';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** How long a repeat waits for the first request with its key to finish, at most. */
const WAIT_MS = 10_000;

export interface IdempotencyOptions {
  operationId: string;
  /** The row's status of a plain returned value. */
  status?: number;
  /** Called on a request that carries a key, so it may load lazily. */
  store: () => IdempotencyStore;
  now?: () => number;
}

type IdempotencyInternal = { idempotencySlot?: IdempotencySlot };

/** The method, the path (it names the asset) and the body, the body by its JSON value where it is JSON. */
function requestHash(event: LambdaEvent): string {
  const raw = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  let body: unknown = raw.toString('base64');
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    // Not JSON: validation answers it; the bytes stand for it here.
  }
  try {
    return fingerprint([event.requestContext.http.method, event.rawPath, body]);
  } catch (error) {
    // JSON nested deeper than the stack can walk (no route's schema takes it): its bytes stand for it.
    if (!(error instanceof RangeError)) throw error;
    return fingerprint([event.requestContext.http.method, event.rawPath, raw.toString('base64')]);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function idempotency(options: IdempotencyOptions): HttpMiddleware {
  const now = options.now ?? Date.now;

  /** Claims the slot (undefined: this request runs), or waits while the same request holds it. */
  async function settle(store: IdempotencyStore, slot: IdempotencySlot, hash: string, deadline: number): Promise<IdempotencyRecord | undefined> {
    const claim = () => {
      const epoch = Math.floor(now() / 1000);
      return store.claim(slot, hash, { epoch, expiresAt: epoch + IDEMPOTENCY_TTL_SECONDS });
    };
    let record = await claim();
    for (let wait = 50; record?.state === 'pending' && record.requestHash === hash; wait = Math.min(wait * 2, 1_000)) {
      if (now() + wait > deadline) {
        throw new UpstreamUnavailableError('An earlier request with this Idempotency-Key is still running: retry in a few seconds to get its answer.');
      }
      await pause(wait);
      // Gone when the earlier request failed and freed it: then this one runs.
      record = (await store.read(slot)) ?? (await claim());
    }
    return record;
  }

  return {
    before: async (request) => {
      const key = parseWith(IdempotencyKeyHeaders, request.event.headers ?? {}, 'header')['idempotency-key'];
      if (key === undefined) return;
      const { workspaceId } = principalOf(request.context) as Principal;
      const slot = { workspaceId, operationId: options.operationId, keyHash: createHash('sha256').update(key).digest('hex') };
      const hash = requestHash(request.event);
      const remaining = request.context.getRemainingTimeInMillis?.() ?? WAIT_MS;
      const record = await settle(options.store(), slot, hash, now() + Math.min(WAIT_MS, remaining / 2));
      if (!record) {
        (request.internal as IdempotencyInternal).idempotencySlot = slot;
        return;
      }
      if (record.requestHash !== hash || record.state !== 'done') {
        throw new InvalidRequestError(
          'Idempotency-Key reused with a different request',
          'This Idempotency-Key was already used for another request in this workspace: resend the original request, or use a new key.',
        );
      }
      setReplay(request, reply.json(JSON.parse(record.body), record.status, { headers: { [REPLAYED_HEADER]: 'true' } }));
    },
    after: async (request) => {
      const slot = (request.internal as IdempotencyInternal).idempotencySlot;
      if (!slot) return;
      const out = request.response;
      const status = isReply(out) ? out.status : (options.status ?? 200);
      const body = isReply(out) ? (out.body.kind === 'json' ? out.body.value : null) : out;
      await options.store().complete(slot, { status, body: JSON.stringify(body ?? null) });
    },
    onError: async (request) => {
      const slot = (request.internal as IdempotencyInternal).idempotencySlot;
      // A failed request keeps nothing: a retry with the key runs again.
      if (slot)
        await options
          .store()
          .release(slot)
          .catch(() => undefined);
    },
  };
}
