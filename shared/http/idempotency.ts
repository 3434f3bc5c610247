/** Idempotency-Key on a workspace POST, after auth (the key is the workspace's): docs/identity.md, "Idempotency-Key on the other POSTs". */
import { createHash } from 'node:crypto';
import { DeadlineExceededError, InvalidRequestError, UpstreamUnavailableError } from '#shared/errors.ts';
import { fingerprint } from '#shared/fingerprint.ts';
import { deadlineOf } from '#shared/http/deadline.ts';
import type { HttpMiddleware } from '#shared/http/middleware-types.ts';
import { principalOf } from '#shared/http/principals.ts';
import { REPLAYED_HEADER, setReplay } from '#shared/http/replay.ts';
import { isReply, reply } from '#shared/http/reply.ts';
import { requestIdOf } from '#shared/http/request-id.ts';
import { bodyBytes, parseWith } from '#shared/http/validation.ts';
import type { Principal, SourceAppPrincipal } from '#shared/identity/principal.ts';
import { log, serializeError } from '#shared/log.ts';
import { emitMetrics } from '#shared/metrics.ts';
import type { LambdaEvent } from '#shared/route-types.ts';
import { IdempotencyKeyHeaders } from '#shared/schemas/common.ts';
import type { IdempotencyClaim, IdempotencySlot, IdempotencyStore } from '#shared/store/idempotency.ts';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** How long a repeat waits for the first request with its key to finish, at most. */
const WAIT_MS = 10_000;

export interface IdempotencyOptions {
  operationId: string;
  /** The Idempotency-Key header (default), or a webhook's verified delivery id, scoped to its source app, so a redelivery gets the first answer. */
  keyFrom?: 'header' | 'delivery';
  status?: number;
  /** The route's time-out: a claim's lease when the invocation does not tell its remaining time. */
  timeoutSeconds: number;
  /** Called on a request that carries a key, so it may load lazily. */
  store: () => IdempotencyStore;
  now?: () => number;
}

type Held = { slot: IdempotencySlot; owner: string };
type IdempotencyInternal = { idempotency?: Held };

/** The method, the path (it names the asset) and the body, the body by its JSON value where it is JSON. */
function requestHash(event: LambdaEvent): string {
  const raw = bodyBytes(event);
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

/** A delivery's id within its source app: two apps' deliveries never share a record. */
function deliveryKey(principal: Principal | SourceAppPrincipal): string {
  if (principal.kind !== 'sourceApp') throw new Error('An idempotency key from the delivery needs a verified webhook (auth webhook)');
  return `${principal.sourceApp.id}\n${principal.deliveryId}`;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A claim gone wrong, for the operator: logged and counted (docs/deploy.md, "Alarms"). */
function incident(kind: 'unsaved' | 'unreleased' | 'taken-over', held: Held, fields: Record<string, unknown> = {}): void {
  const { slot, owner } = held;
  const what = {
    unsaved: 'idempotency answer not stored: a retry with this key after its lease runs the request again',
    unreleased: "idempotency claim not freed: retries with this key wait for its lease's end",
    'taken-over': 'idempotency lease taken over: its first request ended without storing an answer',
  }[kind];
  (kind === 'unsaved' ? log.error : log.warn)(what, { ...slot, owner, ...fields });
  emitMetrics([{ name: 'IdempotencyIncidents', value: 1, dimensions: { Incident: kind } }]);
}

export function idempotency(options: IdempotencyOptions): HttpMiddleware {
  const now = options.now ?? Date.now;

  /** Claims the slot, or waits while the same request holds it; else the record that holds it. */
  async function settle(store: IdempotencyStore, slot: IdempotencySlot, claim: () => IdempotencyClaim, waitUntil: number) {
    for (let wait = 50; ; wait = Math.min(wait * 2, 1_000)) {
      const attempt = claim();
      const outcome = await store.claim(slot, attempt);
      if (outcome.claimed) return outcome;
      const { record } = outcome;
      if (record && (record.state === 'done' || record.requestHash !== attempt.requestHash)) return record;
      if (now() + wait > waitUntil) {
        throw new UpstreamUnavailableError(
          'An earlier request with this Idempotency-Key is still running: retry in a few seconds to get its answer.',
          undefined,
          'caller',
        );
      }
      await pause(wait);
    }
  }

  return {
    before: async (request) => {
      const principal = principalOf(request.context) as Principal | SourceAppPrincipal;
      const key =
        options.keyFrom === 'delivery' ? deliveryKey(principal) : parseWith(IdempotencyKeyHeaders, request.event.headers ?? {}, 'header')['idempotency-key'];
      if (key === undefined) return;
      const { workspaceId } = principal;
      const slot = { workspaceId, operationId: options.operationId, keyHash: createHash('sha256').update(key).digest('hex') };
      const held = { slot, owner: requestIdOf(request.event, request.context) };
      const hash = requestHash(request.event);
      const remaining = request.context.getRemainingTimeInMillis?.() ?? options.timeoutSeconds * 1000;
      const started = now();
      // The lease ends when Lambda would stop this invocation: no later can it still be working.
      const leaseEnds = Math.ceil((started + remaining) / 1000);
      const claim = () => ({ requestHash: hash, owner: held.owner, now: seconds(now()), leaseEnds });
      const record = await settle(options.store(), slot, claim, started + Math.min(WAIT_MS, remaining / 2));
      if ('claimed' in record) {
        if (record.tookOver !== undefined) incident('taken-over', held, { previousOwner: record.tookOver });
        (request.internal as IdempotencyInternal).idempotency = held;
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
    // The work is done: its answer goes to the caller even when it cannot be stored.
    after: async (request) => {
      const held = (request.internal as IdempotencyInternal).idempotency;
      if (!held) return;
      const out = request.response;
      const status = isReply(out) ? out.status : (options.status ?? 200);
      const body = JSON.stringify((isReply(out) ? (out.body.kind === 'json' ? out.body.value : null) : out) ?? null);
      const answer = { status, body, keepUntil: seconds(now()) + IDEMPOTENCY_TTL_SECONDS };
      const stored = await options
        .store()
        .complete(held.slot, held.owner, answer, deadlineOf(request).signal)
        .catch((error: unknown) => serializeError(error));
      if (stored !== true) incident('unsaved', held, stored === false ? { reason: 'the claim was taken over' } : { error: stored });
    },
    onError: async (request) => {
      const held = (request.internal as IdempotencyInternal).idempotency;
      // At the deadline the work may still land: the claim stays until its lease ends, moments later.
      if (!held || request.error instanceof DeadlineExceededError) return;
      await options
        .store()
        .release(held.slot, held.owner, deadlineOf(request).signal)
        .catch((error: unknown) => incident('unreleased', held, { error: serializeError(error) }));
    },
  };
}
