/**
 * Names of what the discovery functions find pre-rendered beside their bundle, kept apart so
 * neither the functions nor the bundling load a renderer to name them.
 */

/** The site pages: / (its Markdown form; its HTML is the editor), /docs and /docs/errors. */
export type PageName = 'home' | 'docs' | 'errors';

export interface SitePage {
  markdown: string;
  html: string;
}

/** The site pages, each written as `<page>.html` and `<page>.md`. */
export const PRERENDERED_PAGES: readonly PageName[] = ['home', 'docs', 'errors'];

export const PRERENDERED_DOCUMENTS = { openapi: 'openapi.json', llms: 'llms.txt', llmsFull: 'llms-full.txt' } as const;
export type DocumentName = keyof typeof PRERENDERED_DOCUMENTS;

/** The origin they are rendered for, replaced by the function's own: never a real host (.invalid). */
export const PLACEHOLDER_ORIGIN = 'https://easel-origin.invalid';

export const PRERENDERED_FOLDER = 'prerendered';
