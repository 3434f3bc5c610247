import type { AlwaysOn } from '#shared/http/middleware-types.ts';
import { applyCors, editHeaders } from '#shared/http/headers.ts';
import type { LambdaEvent } from '#shared/route-types.ts';

/** CORS headers of an actual response by the route's policy; preflights are the fallback's (preflight.ts). */
export const cors: AlwaysOn = (meta) => {
  const apply = (request: { response: unknown; event: LambdaEvent }) => {
    const policy = typeof meta.cors === 'function' ? meta.cors(request.event) : meta.cors;
    editHeaders(request, (headers) => applyCors(headers, policy, request.event));
  };
  return { after: apply, onError: apply };
};
