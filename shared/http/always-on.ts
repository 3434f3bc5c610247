/** What every route and the fallback run, outermost first; `after` and `onError` see the rendered answer, envelopes included. */
import { cors } from '#shared/http/cors.ts';
import { head } from '#shared/http/head.ts';
import type { AlwaysOn } from '#shared/http/middleware-types.ts';
import { originCheck } from '#shared/http/origin-check.ts';
import { requestId } from '#shared/http/request-id.ts';
import { requestMetrics } from '#shared/http/request-metrics.ts';
import { securityHeaders } from '#shared/http/security-headers.ts';

/** Add an always-on middleware here, one line; docs/architecture.md, "Adding a middleware". */
export const ALWAYS_ON: readonly AlwaysOn[] = [
  requestId,
  // Outermost but the id, so its time covers everything else.
  requestMetrics,
  head,
  securityHeaders,
  cors,
  originCheck,
];
