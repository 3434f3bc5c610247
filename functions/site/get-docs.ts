import { sitePage } from '#shared/docs/site.ts';
import { route } from '#shared/http/route.ts';

/** GET /docs: the API guide; HTML, or Markdown on Accept: text/markdown. */
export const handler = route('getDocs', async ({ event }) => sitePage('docs', event.headers?.accept));
