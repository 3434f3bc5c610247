import { sitePage } from '#shared/docs/prerendered-replies.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/site.ts';

/** GET /docs/errors: one anchor per error code, the target of every envelope's `documentation` link. */
export const handler = route(routes.getErrorDocs, async ({ event }) => sitePage('errors', event.headers?.accept));
