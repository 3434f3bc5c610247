/**
 * GET /: the editor page. HTML is the built template with the API base filled in, served under a
 * CSP that allows exactly what the editor does; Markdown (Accept: text/markdown) describes the
 * editor and links the reference pages, like every site page.
 */
import { config } from '#shared/config.ts';
import type { Config } from '#shared/config.ts';
import { sitePage, wantsMarkdown } from '#shared/docs/prerendered-replies.ts';
import { escapeHtml } from '#shared/docs/escape.ts';
import { reply } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';
import { API_BASE_PLACEHOLDER, loadEditor } from '#shared/editor/assets.ts';
import type { LoadedEditor } from '#shared/editor/assets.ts';

/**
 * Where the browser PUTs uploads: the presigned URLs of the assets bucket. Locally that is the
 * embedded S3 (path-style); on AWS the bucket's regional virtual-host name, as the presigner writes it.
 */
export function uploadOrigin(cfg: Pick<Config, 'endpoints' | 'buckets' | 'region'>): string {
  return cfg.endpoints.s3 ? new URL(cfg.endpoints.s3).origin : `https://${cfg.buckets.assets}.s3.${cfg.region}.amazonaws.com`;
}

/**
 * The editor page's Content-Security-Policy, source by source:
 * - scripts and styles: the hashed files from this origin only ('self'); nothing inline.
 * - img-src: this origin and the API's, for tweet media through /api/image-proxy. Captures,
 *   files and pastes are decoded from Blobs with createImageBitmap, which fetches nothing, so
 *   neither blob: nor data: is needed; downloads are navigations, which img-src does not govern.
 * - connect-src: the API (this origin unless EDITOR_API_URL names another) and the assets
 *   bucket's origin, which the browser PUTs a saved export to.
 * - Trusted Types with no policy: no script can assign HTML to the DOM, the editor included.
 * - no base URL, form submission, framing or plug-ins.
 */
export function editorCsp(cfg: Pick<Config, 'editor' | 'endpoints' | 'buckets' | 'region'>): string {
  const api = cfg.editor.apiBaseUrl === undefined ? undefined : new URL(cfg.editor.apiBaseUrl).origin;
  const sources = (...list: (string | undefined)[]) => [...new Set(list.filter((item): item is string => item !== undefined))].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${sources("'self'", api)}`,
    `connect-src ${sources("'self'", api, uploadOrigin(cfg))}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
}

/** The page's HTML: the built template with the configured API base (empty: this origin). */
export function editorHtml(editor: LoadedEditor, apiBaseUrl: string | undefined): string {
  return editor.template.replace(API_BASE_PLACEHOLDER, escapeHtml(apiBaseUrl ?? ''));
}

/**
 * GET / as a reply: the editor, or its Markdown description. The HTML must be revalidated
 * (no-cache): it names the current hashed files, and a copy kept past a release would ask for
 * files that are gone.
 */
export async function editorPage(accept: string | undefined, editor?: LoadedEditor): Promise<Reply> {
  if (wantsMarkdown(accept)) return sitePage('home', accept);
  const cfg = config();
  return reply.text(editorHtml(editor ?? loadEditor(), cfg.editor.apiBaseUrl), 'text/html; charset=utf-8', 200, {
    headers: { 'Cache-Control': 'no-cache', Vary: 'Accept', 'Content-Security-Policy': editorCsp(cfg) },
  });
}
