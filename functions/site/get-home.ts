import { editorPage } from '#shared/editor/page.ts';
import { route } from '#shared/http/route.ts';

/** GET /: the editor; HTML, or its description in Markdown on Accept: text/markdown. */
export const handler = route('getHome', async ({ event }) => editorPage(event.headers?.accept));
