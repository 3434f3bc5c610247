/**
 * The Redact panel: the "Redact sensitive data" command (the same page captured again with
 * `redact`), the kinds it asks for, and the review of its boxes as solid, pixelated or blurred.
 */
import { byId, clearProblem, h, isBusy, setBusy, showProblem } from '../dom.ts';
import type { Editor } from '../editor.ts';
import { readStorage, REDACT_KINDS_KEY, writeStorage } from '../io/local-store.ts';
import { capturedSource, framingOf } from '../model/capture-request.ts';
import type { Annotation } from '../model/edits.ts';
import type { RedactionStyle } from '../model/redaction.ts';
import {
  exposedFindings,
  findingsPhrase,
  isRedactionKind,
  KIND_LABELS,
  keepsSource,
  kindsFrom,
  REDACT_KINDS,
  REDACTION_STYLES,
  redactAvailability,
  redactionAnnotations,
  redactionSummary,
  restyleRedactions,
  withRedactions,
} from '../model/redaction.ts';
import type { Source } from '../render/sources.ts';
import { base64ToBlob, bitmapSource } from '../render/sources.ts';
import type { CaptureRequest, ScreenshotResponse } from './capture-form.ts';
import { captureRequestOf, rememberCaptureRequest } from './capture-form.ts';
import { askBeforeSaving } from './save-warning.ts';

const STYLE_NAMES: Readonly<Record<RedactionStyle, string>> = { solid: 'Solid', pixelate: 'Pixelate', blur: 'Blur' };

/** What the panel needs of the annotate tool: its selection, and word of changes to it. */
export interface SelectionSource {
  selection(): Annotation | undefined;
  onUpdate(listener: () => void): void;
}

let counter = 0;
function newId(): string {
  counter += 1;
  return `r${Date.now().toString(36)}${counter.toString(36)}`;
}

function addressOf(source: Source | undefined): string | undefined {
  return source?.origin?.kind === 'bitmap' ? source.origin.address : undefined;
}

/** The request that made the source, or, for one reopened from the Recent list, its page and framing. */
function requestFor(source: Source, address: string): CaptureRequest {
  return captureRequestOf(source) ?? { ...framingOf({ address, description: source.description }), forceRefresh: false };
}

/** A picture's pixels: the same as the redacted capture's means the page laid out the same. */
function pixelsOf(source: Source): { width: number; height: number } {
  return { width: source.bitmap?.width ?? 0, height: source.bitmap?.height ?? 0 };
}

/** The redacted capture's picture, as a source. */
function redactedSource(request: CaptureRequest, body: ScreenshotResponse): Promise<Source> {
  return bitmapSource(base64ToBlob(body.screenshot, 'image/png'), capturedSource(request, body.url));
}

/** Wires the panel, whose command row is registered in the editor's table; returns the check Save runs first. */
export function setupRedactPanel(editor: Editor, annotator: SelectionSource): { beforeSave: () => Promise<string | undefined> } {
  const panel = new RedactPanel(editor, annotator);
  return { beforeSave: () => panel.beforeSave() };
}

class RedactPanel {
  private readonly button = byId('redact-button', HTMLButtonElement);
  private readonly status = byId('redact-status', HTMLParagraphElement);
  private readonly note = byId('redact-note', HTMLParagraphElement);
  private readonly problem = byId('redact-error', HTMLDivElement);
  private readonly styleLabel = byId('redact-style-label', HTMLSpanElement);
  private readonly boxes: HTMLInputElement[];
  private readonly styleButtons: HTMLButtonElement[];
  private running = false;
  /** Sources whose findings were reviewed: redacted, or saved anyway once asked. */
  private readonly reviewed = new WeakSet<Source>();
  /** The source the status line speaks of. */
  private shown: Source | undefined;
  private readonly editor: Editor;
  private readonly annotator: SelectionSource;

  constructor(editor: Editor, annotator: SelectionSource) {
    this.editor = editor;
    this.annotator = annotator;
    const chosen = new Set(kindsFrom(readStorage(REDACT_KINDS_KEY)));
    this.boxes = REDACT_KINDS.map((kind) =>
      h('input', { type: 'checkbox', name: 'redact-kind', value: kind, id: `redact-kind-${kind}`, checked: chosen.has(kind) }),
    );
    const kindsBox = byId('redact-kinds', HTMLFieldSetElement);
    kindsBox.append(...this.boxes.map((box, index) => h('label', { class: 'check' }, box, ` ${KIND_LABELS[REDACT_KINDS[index]!].control}`)));
    kindsBox.addEventListener('change', () => {
      writeStorage({ [REDACT_KINDS_KEY]: this.kinds().join(',') });
      this.refresh();
    });
    editor.commands.register({
      id: 'redact',
      label: 'Redact sensitive data',
      keys: ['Shift+R'],
      enabled: () => this.available().enabled && !this.running && this.kinds().length > 0,
      run: () => void this.redact(),
    });
    // The button and Shift+R run the same row. No toolbar button: the toolbar has no room left at laptop widths.
    this.button.addEventListener('click', () => {
      if (!isBusy(this.button)) editor.commands.run('redact');
    });
    // The review: the selected box, or every box when none is selected, covered another way.
    this.styleButtons = REDACTION_STYLES.map((style) =>
      h('button', { type: 'button', class: 'redact-style-button', 'data-style': style, 'aria-pressed': 'false' }, STYLE_NAMES[style]),
    );
    byId('redact-styles', HTMLDivElement).append(...this.styleButtons);
    for (const styleButton of this.styleButtons) {
      styleButton.addEventListener('click', () => {
        const next = restyleRedactions(editor.edits, styleButton.dataset.style as RedactionStyle, this.targets());
        if (next !== editor.edits) editor.edit(next);
      });
    }
    editor.onChange(() => this.refresh());
    annotator.onUpdate(() => this.refresh());
    this.refresh();
  }

  private kinds(): string[] {
    return this.boxes.filter((box) => box.checked).map((box) => box.value);
  }

  private available() {
    const source = this.editor.source;
    return redactAvailability(source && { kind: source.kind, address: addressOf(source) });
  }

  /** The selected redaction, or undefined for every box. */
  private targets(): Set<string> | undefined {
    const selected = this.annotator.selection();
    return selected && isRedactionKind(selected.kind) ? new Set([selected.id]) : undefined;
  }

  private async redact(): Promise<void> {
    const source = this.editor.source;
    const address = addressOf(source);
    if (!source || !address) return;
    const found = await this.find(source, address, 'Finding sensitive text…');
    if (!found) return;
    try {
      await this.apply(source, found.request, found.body);
    } catch (error) {
      this.status.textContent = 'Could not look for sensitive text.';
      showProblem(this.problem, error);
      return;
    }
    // Run by its key, the panel may be out of view: the summary and the review come into view,
    // while the preview stays beside or (on a phone) above them.
    this.styleLabel.parentElement?.scrollIntoView({ block: 'nearest' });
  }

  /**
   * Before Save: a captured page in which redaction finds text the picture still shows is named
   * in a dialog, which offers to redact first. Returns why not to save, or undefined to go on. A
   * page already reviewed is not captured again; one that cannot be is saved, and the panel says so.
   */
  async beforeSave(): Promise<string | undefined> {
    const source = this.editor.source;
    const address = addressOf(source);
    // Saved while a redaction runs, the file would be made without its boxes.
    if (this.running) return 'Not saved: the page is being searched for sensitive text; save once that ends.';
    if (!source || !address || this.reviewed.has(source) || this.kinds().length === 0) return undefined;
    const found = await this.find(source, address, 'Looking for sensitive text before saving…');
    if (!found) return this.editor.source === source ? undefined : 'Not saved: another source was opened meanwhile.';
    const { request, body } = found;
    const boxes = body.redactions ?? [];
    if (boxes.length === 0) {
      this.status.textContent = 'Found nothing to redact before saving.';
      this.reviewed.add(source);
      return undefined;
    }
    // Decoded once: Redact first applies this same picture.
    const redacted = await redactedSource(request, body);
    // Laid out otherwise, the boxes cannot be matched to the picture: every finding counts.
    const exposed = keepsSource(pixelsOf(source), pixelsOf(redacted)) ? exposedFindings(boxes, source.density ?? 1, this.editor.edits, source) : boxes;
    if (exposed.length === 0) {
      redacted.bitmap?.close();
      this.status.textContent = 'Everything found is covered or cropped away.';
      this.reviewed.add(source);
      return undefined;
    }
    this.status.textContent = `Found ${findingsPhrase(exposed)} uncovered before saving.`;
    const choice = await askBeforeSaving(findingsPhrase(exposed));
    if (choice === 'redact' && this.editor.source === source) {
      await this.apply(source, request, body, redacted);
      return 'Not saved: review the redaction boxes, then save again.';
    }
    redacted.bitmap?.close();
    if (choice !== 'save') return 'Not saved.';
    this.reviewed.add(source);
    return undefined;
  }

  /** The page captured again with `redact`; undefined when that failed or another source was opened meanwhile (said in the panel). */
  private async find(source: Source, address: string, doing: string): Promise<{ request: CaptureRequest; body: ScreenshotResponse } | undefined> {
    const { editor, status } = this;
    const request = requestFor(source, address);
    this.running = true;
    clearProblem(this.problem);
    this.note.textContent = '';
    setBusy(this.button, true);
    status.textContent = doing;
    editor.busy('Finding sensitive text in the page…');
    try {
      const response = await editor.api.call('/api/screenshot', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...request, redact: this.kinds() }),
      });
      const body = (await response.json()) as ScreenshotResponse;
      if (editor.source === source) return { request, body };
      status.textContent = 'Another source was opened meanwhile: nothing was redacted.';
    } catch (error) {
      status.textContent = 'Could not look for sensitive text.';
      showProblem(this.problem, error);
    } finally {
      this.running = false;
      setBusy(this.button, false);
      editor.busy(undefined);
      this.refresh();
    }
    return undefined;
  }

  /** Adds the boxes as one undo step, over the picture as it is when the page laid out the same; `decoded` is the redacted capture's picture, when already made. */
  private async apply(source: Source, request: CaptureRequest, body: ScreenshotResponse, decoded?: Source): Promise<void> {
    const found = body.redactions ?? [];
    this.reviewed.add(source);
    if (found.length === 0) {
      this.status.textContent = redactionSummary(found);
      return;
    }
    const redacted = decoded ?? (await redactedSource(request, body));
    let target = source;
    if (keepsSource(pixelsOf(source), pixelsOf(redacted))) {
      redacted.bitmap?.close();
    } else {
      rememberCaptureRequest(redacted, request);
      this.editor.setSource(redacted);
      this.reviewed.add(redacted);
      target = redacted;
      this.note.textContent =
        'The page laid out differently this time, so its redacted capture replaced the picture: the text under the boxes is gone from it.';
    }
    this.editor.edit(withRedactions(this.editor.edits, redactionAnnotations(found, target.density ?? 1, newId)));
    this.status.textContent = redactionSummary(found);
  }

  private refresh(): void {
    const { editor, button } = this;
    const { enabled, reason } = this.available();
    const why = !enabled ? reason : this.kinds().length === 0 ? 'Tick at least one kind of text to find.' : '';
    button.disabled = !editor.commands.isEnabled('redact') && !this.running;
    button.title = why || 'Capture the page again with its sensitive text covered, and show each box (Shift+R)';
    if (editor.source !== this.shown) {
      // A new source: the last run's lines were about the one before.
      this.shown = editor.source;
      this.note.textContent = '';
      if (!this.running) this.status.textContent = enabled ? '' : reason;
    }
    const ids = this.targets();
    const covered = editor.edits.annotations.filter((annotation) => isRedactionKind(annotation.kind) && (!ids || ids.has(annotation.id)));
    this.styleLabel.textContent = ids ? 'Cover the selected box with' : 'Cover every box with';
    for (const styleButton of this.styleButtons) {
      styleButton.disabled = covered.length === 0;
      styleButton.setAttribute('aria-pressed', String(covered.length > 0 && covered.every((annotation) => annotation.kind === styleButton.dataset.style)));
    }
  }
}
