/** The editor's state (source and settings) and its preview; panels change the state only through it. */
import type { Api } from './api.ts';
import { byId } from './dom.ts';
import { exportProblem, exportSize, fit, layout } from './layout.ts';
import { FRAMES, GRADIENTS } from './presets.ts';
import { drawComposition } from './render.ts';
import { initialSettings, settingsToParams } from './settings.ts';
import type { Settings } from './settings.ts';
import type { Source } from './sources.ts';

const STORAGE_KEY = 'easel.editor.settings';
/** The fragment this editor last wrote to the address, to tell its own from a shared link's. */
const FRAGMENT_KEY = 'easel.editor.fragment';
/** Room around the composition inside the preview box, in CSS pixels. */
const PREVIEW_MARGIN = 16;

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(entries: Record<string, string>): void {
  try {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  } catch {
    // Storage can be full or switched off; the URL still carries the settings.
  }
}

/** The page's one editor; listeners hear of every change. */
export class Editor {
  readonly api: Api;
  source?: Source;
  settings: Settings;
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
    this.settings = initialSettings(readStorage(STORAGE_KEY), fragment === readStorage(FRAGMENT_KEY) ? '' : fragment);
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

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  setSource(source: Source): void {
    this.source = source;
    this.empty.hidden = true;
    this.changed();
  }

  update(settings: Partial<Settings>): void {
    this.settings = { ...this.settings, ...settings };
    // Storage at once, so a reload straight after a change keeps it; the address when a slider
    // settles, as browsers throttle history.replaceState called that often.
    writeStorage({ [STORAGE_KEY]: settingsToParams(this.settings).toString() });
    clearTimeout(this.persistTimer);
    this.persistTimer = window.setTimeout(() => this.persistNow(), 250);
    this.changed();
  }

  /** undefined hides it. The overlay floats, so nothing moves. */
  busy(text: string | undefined): void {
    this.busyBox.hidden = text === undefined;
    if (text !== undefined) this.busyText.textContent = text;
  }

  exportSize(): { width: number; height: number } | undefined {
    return this.source ? exportSize(layout(this.source, this.settings).canvas, this.settings.scale) : undefined;
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
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const source = this.source;
    if (source) {
      const ratio = window.devicePixelRatio || 1;
      const margin = PREVIEW_MARGIN * ratio;
      const plan = layout(source, this.settings);
      const placed = fit(plan.canvas, { width: this.canvas.width - 2 * margin, height: this.canvas.height - 2 * margin });
      drawComposition(ctx, source, this.settings, placed.scale, {
        x: margin + placed.x,
        y: margin + placed.y,
        checkerboard: this.settings.background === 'none',
      });
    }
    this.canvas.dataset.rendered = String(this.revision);
  }

  /** Also the preview's accessible name. */
  private describe(): void {
    const source = this.source;
    if (!source) {
      this.readout.textContent = 'No source yet';
      return;
    }
    const size = exportSize(layout(source, this.settings).canvas, this.settings.scale);
    const problem = exportProblem(size);
    this.readout.textContent = `Export: ${size.width} × ${size.height} px (${this.settings.scale}×)${problem ? ' · too large' : ''}`;
    this.readout.dataset.width = String(size.width);
    this.readout.dataset.height = String(size.height);
    const background =
      this.settings.background === 'gradient'
        ? `${GRADIENTS.find((entry) => entry.id === this.settings.gradient)?.name ?? ''} gradient`
        : this.settings.background === 'solid'
          ? `solid ${this.settings.color}`
          : 'transparent';
    const frame = FRAMES.find((entry) => entry.id === this.settings.frame)?.name.toLowerCase() ?? '';
    this.canvas.setAttribute('aria-label', `Preview: ${source.description}, on a ${background} background, frame: ${frame}, ${size.width} × ${size.height} pixels`);
  }
}
