import { documentReply } from '#shared/docs/prerendered-replies.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/discovery.ts';

/** GET /llms-full.txt: the full Markdown reference. */
export const handler = route(routes.getLlmsFull, async () => documentReply('llmsFull'));
