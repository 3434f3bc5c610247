import { sitePage } from '#shared/docs/site.ts';
import { route } from '#shared/http/route.ts';

/** GET /: what Easel is and where to start; HTML, or Markdown on Accept: text/markdown. */
export const handler = route('getHome', async ({ event }) => sitePage('home', event.headers?.accept));
