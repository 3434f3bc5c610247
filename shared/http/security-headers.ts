import type { AlwaysOn } from '#shared/http/middleware-types.ts';
import { applySecurityHeaders, editHeaders } from '#shared/http/headers.ts';
import type { LambdaEvent } from '#shared/route-types.ts';

/** The baseline headers (shared/http/headers.ts) on every answer, envelopes included. */
export const securityHeaders: AlwaysOn = () => {
  const apply = (request: { response: unknown; event: LambdaEvent }) => editHeaders(request, (headers) => applySecurityHeaders(headers, request.event));
  return { after: apply, onError: apply };
};
