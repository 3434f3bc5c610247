import { llmsFullReply } from '#shared/docs/llms.ts';
import { route } from '#shared/http/route.ts';

/** GET /llms-full.txt: the full Markdown reference. */
export const handler = route('getLlmsFull', async () => llmsFullReply());
