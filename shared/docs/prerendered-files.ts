/**
 * What the deployed discovery functions find rendered ahead of time beside their bundle
 * (./prerender-at-bundling.ts writes it, ./prerendered-replies.ts reads it): the site pages and
 * the documents, the folder, and the origin they are rendered for. Kept apart so that neither the
 * functions nor the stack's bundling load a renderer to name them.
 */

/** The site pages: / (its Markdown form; its HTML is the editor), /docs and /docs/errors. */
export type PageName = 'home' | 'docs' | 'errors';

/** A page in both forms. */
export interface SitePage {
  markdown: string;
  html: string;
}

/** The site pages, each written as `<page>.html` and `<page>.md`. */
export const PRERENDERED_PAGES: readonly PageName[] = ['home', 'docs', 'errors'];

/** The documents, by the file each is written to. */
export const PRERENDERED_DOCUMENTS = { openapi: 'openapi.json', llms: 'llms.txt', llmsFull: 'llms-full.txt' } as const;
export type DocumentName = keyof typeof PRERENDERED_DOCUMENTS;

/** The origin they are rendered for, replaced by the function's own: never a real host (.invalid). */
export const PLACEHOLDER_ORIGIN = 'https://easel-origin.invalid';

/** The folder beside the bundle that holds them. */
export const PRERENDERED_FOLDER = 'prerendered';
