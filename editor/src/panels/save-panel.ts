/**
 * Save to workspace, as the signed-in user in the active organization (upload-url, the signed PUT,
 * complete), and the organization's saved assets with their download links.
 */
import { byId, clearProblem, formatBytes, h, showProblem } from '../dom.ts';
import type { Editor } from '../editor.ts';
import type { Account } from '../io/account.ts';
import type { Exporter } from './export-panel.ts';
import type { SignInDialog } from './sign-in-dialog.ts';

interface UploadInstructions {
  assetId: string;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
}

interface ListedAsset {
  assetId: string;
  fileName: string;
  bytes: number;
  status: string;
  createdAt: string;
  downloadUrl: string | null;
  downloadExpiresAt: string | null;
}

/** The newest ones: the list is a reminder of what was saved, not a file manager. */
const SHOWN = 10;

async function sha256Hex(blob: Blob): Promise<string | undefined> {
  // SubtleCrypto exists only in secure contexts (https, localhost); the checksum is optional.
  if (!globalThis.crypto?.subtle) return undefined;
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What runs before Save uploads anything: why not to save, or undefined to go on. */
export type SaveCheck = () => Promise<string | undefined>;

export function setupSavePanel(editor: Editor, account: Account, exporter: Exporter, signIn: SignInDialog, beforeSave: SaveCheck): void {
  const saveButton = byId('save-button', HTMLButtonElement);
  const saveStatus = byId('save-status', HTMLParagraphElement);
  const saveResult = byId('save-result', HTMLParagraphElement);
  const saveError = byId('save-error', HTMLDivElement);
  const authStatus = byId('auth-status', HTMLParagraphElement);
  const assetsHeading = byId('assets-heading', HTMLHeadingElement);
  const assetsStatus = byId('assets-status', HTMLParagraphElement);
  const assetList = byId('asset-list', HTMLUListElement);

  const showAuth = () => {
    const organization = account.bootstrap?.organization.name;
    if (account.state === 'checking') return;
    if (account.state === 'unavailable') authStatus.textContent = 'Saving is unavailable: the API did not say who is signed in.';
    else if (!account.session) authStatus.textContent = 'Sign in to save exports to your workspace.';
    else if (!organization) authStatus.textContent = 'Accept an invitation or choose an organization (account menu) to save to its workspace.';
    else if (!account.canSave()) authStatus.textContent = `Your role in ${organization} cannot save assets.`;
    else authStatus.textContent = `Saves to ${organization} as ${account.session.user.name}.`;
  };

  const listAssets = async () => {
    if (!account.bootstrap) {
      assetsHeading.hidden = true;
      assetsStatus.textContent = '';
      assetList.replaceChildren();
      return;
    }
    assetsHeading.hidden = false;
    assetsHeading.textContent = `Saved in ${account.bootstrap.organization.name}`;
    try {
      const { assets } = await editor.api.json<{ assets: ListedAsset[] }>(`/api/v1/assets?limit=${SHOWN}`, { credentials: 'session' });
      assetsStatus.textContent = assets.length === 0 ? 'Nothing saved yet.' : '';
      assetList.replaceChildren(
        ...assets.map((asset) => {
          const when = new Date(asset.createdAt).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
          const link = asset.downloadUrl
            ? h('a', { href: asset.downloadUrl, download: asset.fileName, 'data-asset-id': asset.assetId, 'data-fetched-at': String(Date.now()) }, 'Download')
            : h('span', { class: 'note' }, asset.status === 'pending' ? 'not uploaded' : asset.status);
          return h(
            'li',
            { 'data-asset-id': asset.assetId },
            h('span', { class: 'asset-name' }, asset.fileName),
            ` ${formatBytes(asset.bytes)} · ${when} `,
            link,
          );
        }),
      );
    } catch (error) {
      assetsStatus.textContent = 'The saved assets could not be listed.';
      assetList.replaceChildren();
      showProblem(saveError, error);
    }
  };

  account.onChange(() => {
    showAuth();
    void listAssets();
  });
  showAuth();

  // A signed link lives minutes: one older than that is asked for again on click.
  assetList.addEventListener('click', async (event) => {
    const link = (event.target as Element).closest('a[data-asset-id]') as HTMLAnchorElement | null;
    if (!link?.dataset.assetId) return;
    if (Date.now() - Number(link.dataset.fetchedAt) < 4 * 60_000) return;
    event.preventDefault();
    const { downloadUrl } = await editor.api.json<{ downloadUrl: string }>(`/api/v1/assets/${link.dataset.assetId}/download-url`, { credentials: 'session' });
    link.href = downloadUrl;
    link.dataset.fetchedAt = String(Date.now());
    link.click();
  });

  saveButton.addEventListener(
    'click',
    exporter.guard(async () => {
      clearProblem(saveError);
      saveResult.replaceChildren();
      if (!account.session) {
        saveStatus.textContent = 'Sign in to save.';
        signIn.open('Sign in to save this export to your workspace.');
        return;
      }
      try {
        if (!account.canSave()) throw new Error(authStatus.textContent ?? 'You cannot save to a workspace yet.');
        const refused = await beforeSave();
        if (refused !== undefined) {
          saveStatus.textContent = refused;
          return;
        }
        saveStatus.textContent = 'Exporting…';
        const result = await exporter.freshExport();
        saveStatus.textContent = 'Uploading…';
        const sha256 = await sha256Hex(result.blob);
        const json = { 'Content-Type': 'application/json' };
        const upload = await editor.api.json<UploadInstructions>('/api/v1/assets/upload-url', {
          method: 'POST',
          credentials: 'session',
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
        if (!put?.ok) throw new Error(`The storage service refused the upload${put ? ` (HTTP ${put.status})` : ''}; try saving again.`);
        saveStatus.textContent = 'Verifying…';
        await editor.api.json(`/api/v1/assets/${upload.assetId}/complete`, {
          method: 'POST',
          credentials: 'session',
          headers: json,
          body: JSON.stringify(sha256 ? { sha256 } : {}),
        });
        const download = await editor.api.json<{ downloadUrl: string; expiresAt: string }>(`/api/v1/assets/${upload.assetId}/download-url`, {
          credentials: 'session',
        });
        const until = new Date(download.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
        saveResult.replaceChildren(
          `Saved ${result.name} as asset ${upload.assetId}. `,
          h('a', { href: download.downloadUrl, id: 'saved-link', target: '_blank', rel: 'noopener' }, 'Open the saved image'),
          ` (link valid until ${until}).`,
        );
        saveResult.dataset.assetId = upload.assetId;
        saveStatus.textContent = `Saved to ${account.bootstrap?.organization.name ?? 'the workspace'}.`;
        await listAssets();
      } catch (error) {
        saveStatus.textContent = 'Saving failed.';
        showProblem(saveError, error);
      }
    }),
  );
}
