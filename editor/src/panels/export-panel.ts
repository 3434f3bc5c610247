/** The Export panel: export in the browser (encode.ts), copy the PNG, or save to the workspace as an asset. */
import { byId, clearProblem, formatBytes, h, setBusy, showProblem } from '../dom.ts';
import type { Editor } from '../editor.ts';
import { planOf } from '../render/composition.ts';
import type { Composition } from '../render/composition.ts';
import { exportSize, fittingScale } from '../model/layout.ts';
import { FORMATS, resolvedScale } from '../model/presets.ts';
import { encodeComposition, prepareExport } from '../export/encode.ts';
import type { Encoded } from '../export/encode.ts';

export interface ExportResult {
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

/** What Save to workspace takes from the export panel: a file of the current state, and the buttons' shared busy guard. */
export interface Exporter {
  /** The last export when nothing changed since, else a new one, shown as the last export. */
  freshExport(): Promise<ExportResult>;
  guard(work: () => Promise<void>): () => Promise<void>;
}

/** Wires Export and Copy PNG, and enables Save once there is a source. */
export function setupExportPanel(editor: Editor): Exporter {
  const exportButton = byId('export-button', HTMLButtonElement);
  const copyButton = byId('copy-button', HTMLButtonElement);
  const saveButton = byId('save-button', HTMLButtonElement);
  const exportStatus = byId('export-status', HTMLParagraphElement);
  const exportResult = byId('export-result', HTMLParagraphElement);
  const exportError = byId('export-error', HTMLDivElement);
  let last: ExportResult | undefined;
  let lastUrl: string | undefined;

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
    exportResult.replaceChildren(`${describe(result)} `, link);
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

  return {
    async freshExport() {
      if (last && last.revision === editor.revision) return last;
      const result = await runExport();
      delete exportResult.dataset.stale;
      showResult(result);
      exportStatus.textContent = 'Exported:';
      return result;
    },
    guard: (work) => guard(all, work),
  };
}
