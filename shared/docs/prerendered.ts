/**
 * Where the deployed site functions find their pages rendered ahead of time (./prerender.ts writes
 * them with ./site.ts, ./pages.ts reads them): the pages, the folder beside the bundle, and the
 * origin they are rendered for. Kept apart so that neither the functions nor the stack's bundling
 * load the renderer to name them.
 */

/** The site pages: / (its Markdown form; its HTML is the editor), /docs and /docs/errors. */
export type PageName = 'home' | 'docs' | 'errors';

/** A page in both forms. */
export interface SitePage {
  markdown: string;
  html: string;
}

/** The pages rendered ahead of time: all of them. */
export const PRERENDERED_PAGES: readonly PageName[] = ['home', 'docs', 'errors'];

/** The origin they are rendered for, replaced by the function's own: never a real host (.invalid). */
export const PLACEHOLDER_ORIGIN = 'https://easel-origin.invalid';

/** The folder beside the bundle that holds `<page>.html` and `<page>.md`. */
export const PRERENDERED_FOLDER = 'site-pages';
