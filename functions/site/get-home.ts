import { editorPage } from '#shared/editor/page.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/site.ts';

/** GET /: the editor; HTML, or its description in Markdown on Accept: text/markdown. */
export const handler = route(routes.getHome, async ({ event }) => editorPage(event.headers?.accept));
