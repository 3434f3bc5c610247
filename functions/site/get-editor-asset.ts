import { editorAsset } from '#shared/editor/assets.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/site.ts';

/** GET /editor/{file}: a content-hashed script or stylesheet of the editor, cacheable for a year. */
export const handler = route(routes.getEditorAsset, async ({ params, event }) => editorAsset(params.file, event.headers?.['accept-encoding']));
