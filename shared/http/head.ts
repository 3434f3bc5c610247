import type { AlwaysOn } from '#shared/http/middleware-types.ts';
import { HeaderBag } from '#shared/http/headers.ts';
import { dropStream, streamOf } from '#shared/http/reply.ts';
import type { LambdaEvent, LambdaResult } from '#shared/route-types.ts';

/** HEAD is GET without the body (RFC 9110 §9.3.2): the headers, and the length GET would send. */
export const head: AlwaysOn = () => {
  const strip = (request: { response: unknown; event: LambdaEvent }) => {
    const result = request.response as LambdaResult | undefined;
    if (!result || request.event.requestContext?.http?.method?.toUpperCase() !== 'HEAD') return;
    const headers = new HeaderBag().merge((result.headers ?? {}) as Record<string, string>);
    const body = result.body ?? '';
    if (!headers.has('Content-Length') && !streamOf(result)) {
      headers.set('Content-Length', String(Buffer.byteLength(body, result.isBase64Encoded ? 'base64' : 'utf8')));
    }
    dropStream(result);
    Object.assign(result, { headers: headers.toObject(), body: '', isBase64Encoded: false });
  };
  return { after: strip, onError: strip };
};
