import { documentReply } from '#shared/docs/prerendered-replies.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/discovery.ts';

/** GET /openapi.json: the OpenAPI 3.1 description of every public operation. */
export const handler = route(routes.getOpenApi, async () => documentReply('openapi'));
