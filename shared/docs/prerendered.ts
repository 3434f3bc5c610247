/**
 * Where the deployed site functions find their pages rendered ahead of time (./prerender.ts writes
 * them, ./site.ts reads them): the pages, the folder beside the bundle, and the origin they are
 * rendered for. Kept apart so the stack's bundling names the folder without loading the renderer.
 */

/** The pages rendered ahead of time: the guide and the error reference. */
export const PRERENDERED_PAGES = ['docs', 'errors'] as const;

/** The origin they are rendered for, replaced by the function's own: never a real host (.invalid). */
export const PLACEHOLDER_ORIGIN = 'https://easel-origin.invalid';

/** The folder beside the bundle that holds `<page>.html` and `<page>.md`. */
export const PRERENDERED_FOLDER = 'site-pages';
