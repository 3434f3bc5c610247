/** One id per request end to end: API Gateway's, which its access log also writes ($context.requestId). */
import type { AlwaysOn } from '#shared/http/middleware-types.ts';
import { editHeaders } from '#shared/http/headers.ts';
import type { LambdaContext, LambdaEvent } from '#shared/route-types.ts';

/** Lambda's own id only when there is no API Gateway (an invoke by hand). */
export function requestIdOf(event: LambdaEvent, context: LambdaContext | undefined): string {
  return event.requestContext?.requestId || context?.awsRequestId || 'local';
}

export const requestId: AlwaysOn = () => {
  const apply = (request: { response: unknown; event: LambdaEvent; context: LambdaContext }) =>
    editHeaders(request, (headers) => headers.set('X-Request-Id', requestIdOf(request.event, request.context)));
  return { after: apply, onError: apply };
};
