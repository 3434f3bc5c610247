import { openApiReply } from '#shared/docs/openapi.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/discovery.ts';

/** GET /openapi.json: the OpenAPI 3.1 description of every public operation. */
export const handler = route(routes.getOpenApi, async () => openApiReply());
