import { llmsReply } from '#shared/docs/llms.ts';
import { route } from '#shared/http/route.ts';

/** GET /llms.txt: the site overview for language models. */
export const handler = route('getLlms', async () => llmsReply());
