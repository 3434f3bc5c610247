import { documentReply } from '#shared/docs/prerendered-replies.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/discovery.ts';

/** GET /llms.txt: the site overview for language models. */
export const handler = route(routes.getLlms, async () => documentReply('llms'));
