/** The Export panel: export in the browser (encode.ts), copy the PNG, or save to the workspace as an asset. */
import { ApiError } from '../io/api.ts';
import { byId, clearProblem, formatBytes, h, setBusy, showProblem } from '../dom.ts';
import type { Editor } from '../editor.ts';
import { planOf } from '../render/composition.ts';
import type { Composition } from '../render/composition.ts';
import { exportSize, fittingScale } from '../model/layout.ts';
import { FORMATS, resolvedScale } from '../model/presets.ts';
import { encodeComposition, prepareExport } from '../export/encode.ts';
import type { Encoded } from '../export/encode.ts';

interface ExportResult {
  blob: Blob;
  name: string;
  type: string;
  width: number;
  height: number;
  /** A later change makes the export stale. */
  revision: number;
  /** Where it was made: 'worker' off the main thread. */
  encoder: Encoded['encoder'];
  /** Below the chosen scale when that one would be too large to make. */
  scale: number;
}

interface UploadInstructions {
  assetId: string;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
}

interface Me {
  name: string;
  email: string;
}

/**
 * Set once /api/v1/me has answered for a session. The cookie is HttpOnly, so the page cannot see
 * it: without this hint it asks only when saving, and an anonymous visit logs no 401.
 */
const SIGNED_IN_HINT = 'easel.editor.signed-in';

function signInHint(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_HINT) === '1';
  } catch {
    return false;
  }
}

function setSignInHint(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_HINT, '1');
    else localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    // Without storage the page asks again when saving.
  }
}

async function sha256Hex(blob: Blob): Promise<string | undefined> {
  // SubtleCrypto exists only in secure contexts (https, localhost); the checksum is optional.
  if (!globalThis.crypto?.subtle) return undefined;
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What runs before Save uploads anything: why not to save, or undefined to go on. */
export type SaveCheck = () => Promise<string | undefined>;

/** Wires Export, Copy PNG and Save to workspace, and shows who saves. */
export function setupExportPanel(editor: Editor, beforeSave: SaveCheck = async () => undefined): void {
  const exportButton = byId('export-button', HTMLButtonElement);
  const copyButton = byId('copy-button', HTMLButtonElement);
  const saveButton = byId('save-button', HTMLButtonElement);
  const exportStatus = byId('export-status', HTMLParagraphElement);
  const exportResult = byId('export-result', HTMLParagraphElement);
  const exportError = byId('export-error', HTMLDivElement);
  const saveStatus = byId('save-status', HTMLParagraphElement);
  const saveResult = byId('save-result', HTMLParagraphElement);
  const saveError = byId('save-error', HTMLDivElement);
  const apiKey = byId('api-key', HTMLInputElement);
  const authStatus = byId('auth-status', HTMLParagraphElement);
  const accountStatus = byId('account-status', HTMLParagraphElement);
  let last: ExportResult | undefined;
  let lastUrl: string | undefined;
  let signedIn: Me | undefined;

  const readyComposition = (): Composition => {
    const composition = editor.composition();
    if (!composition) throw new Error('There is nothing to export yet: capture a page, load a tweet or open an image first.');
    // The crop tool's whole-source view is for the preview only.
    return { ...composition, edits: editor.edits };
  };

  /** Drawn and encoded in the worker, at the chosen scale or the largest below it that can be made. */
  const runExport = async (): Promise<ExportResult> => {
    const composition = readyComposition();
    const settings = composition.settings;
    const revision = editor.revision;
    const format = FORMATS.find((entry) => entry.id === settings.format) ?? FORMATS[0];
    const canvas = planOf(composition).canvas;
    const scale = fittingScale(canvas, resolvedScale(settings.scale, composition.source.density));
    exportStatus.textContent = `Making the ${format.name} file (${settings.quality} quality)…`;
    performance.mark('easel-export:start');
    const made = await encodeComposition(composition, scale, format.id, settings.quality);
    performance.mark('easel-export:done');
    // The worker's own timings, for the bench.
    performance.measure('easel-export:render', { start: 'easel-export:start', duration: made.timings.render });
    performance.measure('easel-export:encode', { start: 'easel-export:start', duration: made.timings.encode });
    return { blob: made.blob, name: `easel.${format.extension}`, type: format.type, ...exportSize(canvas, scale), revision, encoder: made.encoder, scale };
  };

  const describe = (result: ExportResult) => `${result.name} · ${formatBytes(result.blob.size)} · ${result.width} × ${result.height} px`;

  const showResult = (result: ExportResult) => {
    last = result;
    if (lastUrl) URL.revokeObjectURL(lastUrl);
    lastUrl = URL.createObjectURL(result.blob);
    const link = h('a', { href: lastUrl, download: result.name }, 'Download again');
    exportResult.replaceChildren(h('span', { class: 'result-text' }, describe(result)), ' ', link);
    Object.assign(exportResult.dataset, {
      name: result.name,
      bytes: String(result.blob.size),
      width: String(result.width),
      height: String(result.height),
      encoder: result.encoder,
      scale: String(result.scale),
    });
    return lastUrl;
  };

  // A change of source or settings makes the last export stale: say so rather than hide it.
  editor.onChange(() => {
    if (last && last.revision !== editor.revision && exportResult.dataset.stale !== 'true') {
      exportResult.dataset.stale = 'true';
      exportStatus.textContent = 'The settings changed since the last export.';
    }
  });

  let busy = false;
  const guard = (buttons: HTMLButtonElement[], work: () => Promise<void>) => async () => {
    if (busy) return;
    busy = true;
    for (const button of buttons) setBusy(button, true);
    try {
      await work();
    } finally {
      busy = false;
      for (const button of buttons) setBusy(button, false);
    }
  };
  const all = [exportButton, copyButton, saveButton];
  // Nothing to export until there is a source; a source, once there, stays.
  const enable = () => {
    for (const button of all) button.disabled = !editor.source;
    // The worker and its codecs load once there is something to export.
    if (editor.source && !exportButton.dataset.worker) {
      exportButton.dataset.worker = 'loading';
      prepareExport((ready) => (exportButton.dataset.worker = ready ? 'ready' : 'failed'));
    }
  };
  editor.onChange(enable);
  enable();

  // Rows of the editor's command table (commands.ts): the buttons and Ctrl/⌘+S, Ctrl/⌘+C run them.
  const ready = () => editor.source !== undefined;
  exportButton.addEventListener('click', () => editor.commands.run('export.download'));
  copyButton.addEventListener('click', () => editor.commands.run('export.copy'));
  editor.commands.register({
    id: 'export.download',
    label: 'Export and download',
    keys: ['Mod+S'],
    enabled: ready,
    run: guard(all, async () => {
      clearProblem(exportError);
      try {
        const result = await runExport();
        delete exportResult.dataset.stale;
        const url = showResult(result);
        h('a', { href: url, download: result.name }).click();
        const chosen = resolvedScale(editor.settings.scale, editor.source?.density);
        exportStatus.textContent =
          result.scale < chosen
            ? `Exported and downloaded at ${result.scale}×, the largest scale that can be made (${chosen}× would be too large):`
            : 'Exported and downloaded:';
      } catch (error) {
        exportStatus.textContent = 'The export failed.';
        showProblem(exportError, error);
      }
    }),
  });

  editor.commands.register({
    id: 'export.copy',
    label: 'Copy PNG (when no text is selected)',
    keys: ['Mod+C'],
    // With text selected on the page, Ctrl/⌘+C copies that text.
    enabled: () => ready() && (window.getSelection()?.toString() ?? '') === '',
    run: guard(all, async () => {
      clearProblem(exportError);
      try {
        const composition = readyComposition();
        if (!navigator.clipboard || typeof ClipboardItem === 'undefined') {
          throw new Error('This browser does not let pages put images on the clipboard here (it needs https or localhost): use Export instead.');
        }
        const canvas = planOf(composition).canvas;
        const scale = fittingScale(canvas, resolvedScale(composition.settings.scale, composition.source.density));
        const size = exportSize(canvas, scale);
        // A promise in the ClipboardItem keeps the user gesture alive while the PNG is made (Safari needs it).
        const png = encodeComposition(composition, scale, 'png', 'high').then((made) => made.blob);
        await navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]);
        exportStatus.textContent = `Copied a ${size.width} × ${size.height} px PNG to the clipboard.`;
      } catch (error) {
        exportStatus.textContent = 'Copying failed.';
        showProblem(exportError, error instanceof DOMException ? new Error(`The clipboard refused the image: ${error.message}`) : error);
      }
    }),
  });

  saveButton.addEventListener(
    'click',
    guard(all, async () => {
      clearProblem(saveError);
      saveResult.replaceChildren();
      try {
        if (apiKey.value.trim() === '' && !signedIn) await checkSignIn();
        if (apiKey.value.trim() === '' && !signedIn) {
          throw new Error('Sign in, or paste an organization API key, to save to a workspace.');
        }
        editor.api.apiKey = apiKey.value.trim();
        const refused = await beforeSave();
        if (refused !== undefined) {
          saveStatus.textContent = refused;
          return;
        }
        let result = last;
        if (!result || result.revision !== editor.revision) {
          saveStatus.textContent = 'Exporting…';
          result = await runExport();
          delete exportResult.dataset.stale;
          showResult(result);
          exportStatus.textContent = 'Exported:';
        }
        saveStatus.textContent = 'Uploading…';
        const sha256 = await sha256Hex(result.blob);
        const json = { 'Content-Type': 'application/json' };
        const upload = await editor.api.json<UploadInstructions>('/api/v1/assets/upload-url', {
          method: 'POST',
          credentials: 'workspace',
          headers: json,
          body: JSON.stringify({
            bytes: result.blob.size,
            contentType: result.type,
            fileName: result.name,
            classification: 'export',
            ...(sha256 ? { sha256 } : {}),
          }),
        });
        // Browsers set Content-Length themselves and refuse to be told it.
        const headers = Object.fromEntries(Object.entries(upload.headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
        const put = await fetch(upload.uploadUrl, { method: upload.method, headers, body: result.blob }).catch(() => undefined);
        if (!put?.ok) {
          throw new Error(`The storage service refused the upload${put ? ` (HTTP ${put.status})` : ''}; try saving again.`);
        }
        saveStatus.textContent = 'Verifying…';
        await editor.api.json(`/api/v1/assets/${upload.assetId}/complete`, {
          method: 'POST',
          credentials: 'workspace',
          headers: json,
          body: JSON.stringify(sha256 ? { sha256 } : {}),
        });
        const download = await editor.api.json<{ downloadUrl: string; expiresAt: string }>(`/api/v1/assets/${upload.assetId}/download-url`, {
          credentials: 'workspace',
        });
        const until = new Date(download.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
        saveResult.replaceChildren(
          `Saved ${result.name} as asset ${upload.assetId}. `,
          h('a', { href: download.downloadUrl, id: 'saved-link', target: '_blank', rel: 'noopener' }, 'Open the saved image'),
          ` (link valid until ${until}).`,
        );
        saveResult.dataset.assetId = upload.assetId;
        saveStatus.textContent = 'Saved to the workspace.';
      } catch (error) {
        saveStatus.textContent = 'Saving failed.';
        showProblem(saveError, error);
      }
    }),
  );

  const showAuth = () => {
    const key = apiKey.value.trim();
    editor.api.apiKey = key;
    if (key !== '') authStatus.textContent = 'Saving with the pasted API key. It stays in this tab’s memory and is gone when you close or reload it.';
    else if (signedIn) authStatus.textContent = `Saving as ${signedIn.name} (${signedIn.email}), signed in.`;
    else authStatus.textContent = 'Not signed in: paste an organization API key to save exports as workspace assets.';
  };
  apiKey.addEventListener('input', showAuth);

  async function checkSignIn(): Promise<void> {
    try {
      signedIn = await editor.api.json<Me>('/api/v1/me', { credentials: 'session' });
      accountStatus.textContent = `Signed in as ${signedIn.name}`;
      setSignInHint(true);
    } catch (error) {
      signedIn = undefined;
      // 401 is the usual anonymous visit; anything else (no CORS from another origin, API down) reads the same here.
      const anonymous = error instanceof ApiError && error.status === 401;
      if (anonymous) setSignInHint(false);
      accountStatus.textContent = anonymous ? 'Not signed in' : 'Sign-in unavailable';
    }
    showAuth();
  }

  if (signInHint()) void checkSignIn();
  else {
    accountStatus.textContent = 'Not signed in';
    showAuth();
  }
}
