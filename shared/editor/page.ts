/** GET /: the editor page under a CSP that allows exactly what it does, or Markdown like every site page. */
import { config } from '#shared/config.ts';
import type { Config } from '#shared/config.ts';
import { sitePage, wantsMarkdown } from '#shared/docs/prerendered-replies.ts';
import { escapeHtml } from '#shared/docs/escape.ts';
import { reply } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';
import { API_BASE_PLACEHOLDER, CAPTURE_TIMEOUT_PLACEHOLDER, EXPORT_WORKER_POLICY, loadEditor } from '#shared/editor/assets.ts';
import type { LoadedEditor } from '#shared/editor/assets.ts';

/** Where the browser PUTs uploads: the origin the presigner writes (path-style locally). */
export function uploadOrigin(cfg: Pick<Config, 'endpoints' | 'buckets' | 'region'>): string {
  return cfg.endpoints.s3 ? new URL(cfg.endpoints.s3).origin : `https://${cfg.buckets.assets}.s3.${cfg.region}.amazonaws.com`;
}

/** Why each source is there: docs/editor.md, "Content-Security-Policy". */
export function editorCsp(cfg: Pick<Config, 'editor' | 'endpoints' | 'buckets' | 'region'>): string {
  const api = cfg.editor.apiBaseUrl === undefined ? undefined : new URL(cfg.editor.apiBaseUrl).origin;
  const sources = (...list: (string | undefined)[]) => [...new Set(list.filter((item): item is string => item !== undefined))].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${sources("'self'", api)}`,
    `connect-src ${sources("'self'", api, uploadOrigin(cfg))}`,
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    `trusted-types ${EXPORT_WORKER_POLICY}`,
  ].join('; ');
}

/** An empty API base means this origin. The capture time-out lets the page say how long a capture may take. */
export function editorHtml(editor: LoadedEditor, apiBaseUrl: string | undefined, captureTimeoutMs: number): string {
  return editor.template.replace(API_BASE_PLACEHOLDER, escapeHtml(apiBaseUrl ?? '')).replace(CAPTURE_TIMEOUT_PLACEHOLDER, String(captureTimeoutMs));
}

/** The HTML is no-cache: it names the current hashed files, which a release removes. */
export async function editorPage(accept: string | undefined, editor?: LoadedEditor): Promise<Reply> {
  if (wantsMarkdown(accept)) return sitePage('home', accept);
  const cfg = config();
  return reply.text(editorHtml(editor ?? loadEditor(), cfg.editor.apiBaseUrl, cfg.capture.timeoutMs), 'text/html; charset=utf-8', 200, {
    headers: { 'Cache-Control': 'no-cache', Vary: 'Accept', 'Content-Security-Policy': editorCsp(cfg) },
  });
}
