import { sitePage } from '#shared/docs/prerendered-replies.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/site.ts';

/** GET /docs: the API guide; HTML, or Markdown on Accept: text/markdown. */
export const handler = route(routes.getDocs, async ({ event }) => sitePage('docs', event.headers?.accept));
