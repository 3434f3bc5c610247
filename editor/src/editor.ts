/** The editor's state (source and settings) and its preview; panels change the state only through it. */
import type { Api } from './io/api.ts';
import { describeBackground } from './render/backgrounds.ts';
import { Commands } from './actions/commands.ts';
import { byId } from './dom.ts';
import { DocumentModel } from './model/document-model.ts';
import type { Snapshot } from './model/document-model.ts';
import type { Edits } from './model/edits.ts';
import type { HistoryState } from './model/history.ts';
import { exportProblem, exportSize } from './model/layout.ts';
import type { Rect } from './model/layout.ts';
import { FRAMES, resolvedScale, scaleName } from './model/presets.ts';
import type { Scale } from './model/presets.ts';
import { planOf } from './render/composition.ts';
import type { Composition } from './render/composition.ts';
import { drawComposition } from './render/render.ts';
import { initialSettings, settingsToParams } from './model/settings.ts';
import type { Settings } from './model/settings.ts';
import type { Source } from './render/sources.ts';
import { FIT, place } from './model/zoom.ts';
import type { Viewport } from './model/zoom.ts';
import { FRAGMENT_KEY, readEdits, readStorage, sourceKey, STORAGE_KEY, writeEdits, writeStorage } from './io/local-store.ts';

/** Steps of undo kept; the page shows how many are left. */
export const HISTORY_LIMIT = 100;
/** Room around the composition inside the preview box, in CSS pixels. */
export const PREVIEW_MARGIN = 16;

export type { Snapshot } from './model/document-model.ts';

/** The preview's placement of the content (the source after its crop). */
export interface View {
  /** The content's box in CSS pixels from the preview canvas's top-left corner. */
  box: Rect;
  /** Page pixels per source layout pixel. */
  scale: number;
  /** The part of the source shown. */
  crop: Rect;
  /** The whole composition's box, in the same CSS pixels, for zoom and pan. */
  composition: Rect;
}

export interface ChangeOptions {
  /** Changes in a row under one key (a slider drag, a nudge) undo as one step. */
  merge?: string;
}

/** The page's one editor; listeners hear of every change. */
export class Editor {
  readonly api: Api;
  source?: Source;
  /** Settings, edits and their history, apart from the DOM. */
  private readonly model: DocumentModel;
  /** For an image background; kept in the browser (background-image.ts), not in the settings. */
  backgroundImage?: ImageBitmap;
  /** Every action, for the toolbar, the keyboard and the tools (commands.ts). */
  readonly commands = new Commands();
  /** The preview's zoom and pan (zoom.ts); never part of the document. */
  viewport: Viewport = FIT;
  /** While set, the preview shows the whole source (the crop tool draws the crop over it). */
  showWholeSource = false;
  private view: View | undefined;
  /** 'select', an annotation kind, or 'crop': one tool at a time acts on the preview. */
  tool = 'select';
  private readonly toolListeners: ((tool: string) => void)[] = [];
  private readonly renderListeners: (() => void)[] = [];
  /** An export made at another revision is stale. */
  revision = 0;
  private readonly listeners: (() => void)[] = [];
  private frame = 0;
  private persistTimer = 0;
  private leaving = false;
  private readonly canvas = byId('preview', HTMLCanvasElement);
  private readonly stage = byId('stage', HTMLDivElement);
  private readonly empty = byId('stage-empty', HTMLDivElement);
  private readonly busyBox = byId('stage-busy', HTMLDivElement);
  private readonly busyText = byId('stage-busy-text', HTMLSpanElement);
  private readonly readout = byId('readout', HTMLParagraphElement);

  constructor(api: Api) {
    this.api = api;
    // A reload reopens the address as it was before the last, debounced, fragment write; when it is
    // the editor's own, storage holds the newer settings.
    const fragment = location.hash.replace(/^#/, '');
    this.model = new DocumentModel(initialSettings(readStorage(STORAGE_KEY), fragment === readStorage(FRAGMENT_KEY) ? '' : fragment), HISTORY_LIMIT);
    // The box has a fixed size (CSS), so sizing the canvas backing store never moves anything.
    new ResizeObserver(() => this.resize()).observe(this.stage);
    this.resize();
    // A pending address update must not be lost to a closed tab or a page put in the background.
    // While the page unloads, a reload has already taken the old address, so that one stays the
    // editor's own.
    window.addEventListener('pagehide', () => {
      this.leaving = true;
      this.persistNow(false);
    });
    window.addEventListener('pageshow', () => {
      this.leaving = false;
    });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.persistNow(!this.leaving);
    });
  }

  get settings(): Settings {
    return this.model.settings;
  }

  get edits(): Edits {
    return this.model.edits;
  }

  get history(): DocumentModel['history'] {
    return this.model.history;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** After each drawing of the preview, for overlays that follow its placement. */
  onRender(listener: () => void): void {
    this.renderListeners.push(listener);
  }

  /** Tools hear when another takes over, to put away what they show. */
  onTool(listener: (tool: string) => void): void {
    this.toolListeners.push(listener);
  }

  setTool(tool: string): void {
    if (tool === this.tool) return;
    this.tool = tool;
    this.stage.dataset.tool = tool;
    for (const listener of this.toolListeners) listener(tool);
  }

  /** Asks for a redraw without a change of state (a tool's own overlay, say). */
  redraw(): void {
    this.scheduleRender();
  }

  /** Not an undo step itself: choosing an image records the switch to an image background. */
  setBackgroundImage(bitmap: ImageBitmap | undefined): void {
    if (this.backgroundImage !== bitmap) this.backgroundImage?.close();
    this.backgroundImage = bitmap;
    this.changed();
  }

  setViewport(viewport: Viewport): void {
    this.viewport = viewport;
    this.scheduleRender();
  }

  /**
   * Shows a gesture's draft (a drag, a text being typed) in the preview without an undo step;
   * {@link endDraft} records the whole gesture as one step, or puts back what was there.
   */
  draft(edits: Edits): void {
    this.model.draft(edits);
    this.scheduleRender();
  }

  endDraft(keep: boolean): void {
    const before = this.model.endDraft(keep);
    if (before) this.applied(before);
    else this.scheduleRender();
  }

  /** A new source starts a new history, with the edits it had when last open; a reopened one brings its own (recent-sources.ts). */
  setSource(source: Source, kept?: { edits: Edits; history: HistoryState<Snapshot> }): void {
    this.viewport = FIT;
    this.source = source;
    this.model.open(kept?.edits ?? readEdits(sourceKey(source)));
    if (kept) this.model.history.restore(kept.history);
    this.empty.hidden = true;
    this.changed();
  }

  update(settings: Partial<Settings>, options: ChangeOptions = {}): void {
    const before = this.model.snapshot();
    this.model.update(settings, options.merge);
    this.applied(before);
  }

  /** Annotations and crop; recorded for undo like settings. */
  edit(edits: Partial<Edits>, options: ChangeOptions = {}): void {
    const before = this.model.snapshot();
    this.model.edit(edits, options.merge);
    this.applied(before);
  }

  undo(): boolean {
    const before = this.model.snapshot();
    const previous = this.model.undo();
    if (previous) this.applied(before);
    return previous !== undefined;
  }

  redo(): boolean {
    const before = this.model.snapshot();
    const next = this.model.redo();
    if (next) this.applied(before);
    return next !== undefined;
  }

  snapshot(): Snapshot {
    return this.model.snapshot();
  }

  /** What is exported, with the stored crop; undefined until there is a source. */
  composition(): Composition | undefined {
    return this.source ? { source: this.source, settings: this.settings, edits: this.edits, backgroundImage: this.backgroundImage } : undefined;
  }

  /** Where the preview last drew the content; undefined before the first drawing of a source. */
  currentView(): View | undefined {
    return this.view;
  }

  /** A point on the page (client coordinates) in source layout pixels. */
  toSource(clientX: number, clientY: number): { x: number; y: number } | undefined {
    const view = this.view;
    if (!view) return undefined;
    const page = this.canvas.getBoundingClientRect();
    return { x: view.crop.x + (clientX - page.x - view.box.x) / view.scale, y: view.crop.y + (clientY - page.y - view.box.y) / view.scale };
  }

  /** Keeps and shows what the model changed since `before`. */
  private applied(before: Snapshot): void {
    const settingsChanged = before.settings !== this.settings;
    const editsChanged = before.edits !== this.edits;
    if (settingsChanged) {
      // Storage at once, so a reload straight after a change keeps it; the address when a slider
      // settles, as browsers throttle history.replaceState called that often.
      writeStorage({ [STORAGE_KEY]: settingsToParams(this.settings).toString() });
      clearTimeout(this.persistTimer);
      this.persistTimer = window.setTimeout(() => this.persistNow(), 250);
    }
    if (editsChanged && this.source) writeEdits(sourceKey(this.source), this.edits);
    this.changed();
  }

  /** undefined hides it. The overlay floats, so nothing moves. */
  busy(text: string | undefined): void {
    this.busyBox.hidden = text === undefined;
    if (text !== undefined) this.busyText.textContent = text;
  }

  exportSize(scale: Scale = this.settings.scale): { width: number; height: number } | undefined {
    const composition = this.composition();
    return composition ? exportSize(planOf({ ...composition, edits: this.edits }).canvas, resolvedScale(scale, composition.source.density)) : undefined;
  }

  link(): string {
    return `${location.origin}${location.pathname}#${settingsToParams(this.settings).toString()}`;
  }

  private persistNow(own = true): void {
    clearTimeout(this.persistTimer);
    const params = settingsToParams(this.settings).toString();
    writeStorage({ [STORAGE_KEY]: params, ...(own ? { [FRAGMENT_KEY]: params } : {}) });
    history.replaceState(history.state, '', `#${params}`);
  }

  private changed(): void {
    this.revision += 1;
    this.canvas.dataset.revision = String(this.revision);
    for (const listener of this.listeners) listener();
    // The words now, the pixels in the next frame.
    this.describe();
    this.scheduleRender();
  }

  private resize(): void {
    const box = this.stage.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(box.width * ratio));
    const height = Math.max(1, Math.round(box.height * ratio));
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    this.render();
  }

  private scheduleRender(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  render(): void {
    // In memory, as the export's canvases: where the GPU is emulated (SwiftShader) a GPU canvas's
    // drawing runs later on the GPU's threads, and after a series of edits it kept both cores busy
    // for seconds, slowing an export clicked meanwhile by half.
    const ctx = this.canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const stored = this.composition();
    // The crop tool draws its crop over the whole source.
    const composition = stored && this.showWholeSource ? { ...stored, edits: { ...stored.edits, crop: null } } : stored;
    this.view = undefined;
    if (composition) {
      const ratio = window.devicePixelRatio || 1;
      const plan = planOf(composition);
      // Placed in CSS pixels (zoom is in CSS pixels per layout pixel), drawn in device pixels.
      const css = place(plan.canvas, { width: this.canvas.width / ratio, height: this.canvas.height / ratio }, PREVIEW_MARGIN, this.viewport);
      const placed = { x: css.x * ratio, y: css.y * ratio, scale: css.scale * ratio };
      const { x, y } = placed;
      drawComposition(ctx, composition, placed.scale, { x, y, checkerboard: this.settings.background === 'none' });
      const toPage = this.canvas.getBoundingClientRect().width / this.canvas.width;
      const { source, edits } = composition;
      this.view = {
        composition: { x: x * toPage, y: y * toPage, width: plan.canvas.width * placed.scale * toPage, height: plan.canvas.height * placed.scale * toPage },
        box: {
          x: (x + plan.content.x * placed.scale) * toPage,
          y: (y + plan.content.y * placed.scale) * toPage,
          width: plan.content.width * placed.scale * toPage,
          height: plan.content.height * placed.scale * toPage,
        },
        scale: placed.scale * toPage,
        crop: edits.crop ?? { x: 0, y: 0, width: source.width, height: source.height },
      };
    }
    this.canvas.dataset.rendered = String(this.revision);
    for (const listener of this.renderListeners) listener();
  }

  /** Also the preview's accessible name. */
  private describe(): void {
    const source = this.source;
    if (!source) {
      this.readout.textContent = 'No source yet';
      return;
    }
    const size = this.exportSize()!;
    const problem = exportProblem(size);
    // The scale Auto stands for: the line fits beside the shortcuts on a phone, and the Scale control says Auto.
    const scale = scaleName(resolvedScale(this.settings.scale, source.density));
    this.readout.textContent = `Export: ${size.width} × ${size.height} px (${scale})${problem ? ' · too large' : ''}`;
    this.readout.dataset.width = String(size.width);
    this.readout.dataset.height = String(size.height);
    const background = describeBackground(this.settings, this.backgroundImage !== undefined);
    const frame = FRAMES.find((entry) => entry.id === this.settings.frame)?.name.toLowerCase() ?? '';
    this.canvas.setAttribute('aria-label', `Preview: ${source.description}, on ${background}, frame: ${frame}, ${size.width} × ${size.height} pixels`);
  }
}
