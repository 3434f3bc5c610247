/**
 * Drawing and editing annotations on the preview: drag to draw, the new shape selected, handles to
 * resize, drag to move, a text field over the preview for text. Handles live on an overlay canvas.
 */
import { ANNOTATION_FONT, boundsOf, handleAt, handlesOf, isBoxKind, isDrawn, isLineKind, moved, nextStepNumber, normalised, renumberSteps, resized, snapAngle, squareCorner, textFont, TEXT_LINE_HEIGHT, topmostAt } from './annotation-geometry.ts';
import type { Handle, Measure, Point } from './annotation-geometry.ts';
import { byId } from './dom.ts';
import type { Editor } from './editor.ts';
import type { Annotation, Edits, ShapeAnnotation, TextAnnotation } from './edits.ts';
import type { Source } from './sources.ts';

/** The tools that draw, in toolbar order; 'select' and 'crop' are the others. */
export const DRAWING_TOOLS = ['arrow', 'line', 'rect', 'ellipse', 'highlight', 'text', 'step', 'blur', 'pixelate'] as const;
export type DrawingTool = (typeof DRAWING_TOOLS)[number];

export interface AnnotationStyle {
  color: string;
  /** Stroke width; a step marker's size follows it. */
  width: number;
  size: number;
  weight: 400 | 700;
}

/** In CSS pixels: how near a pointer must be to pick a shape or a handle, and how far to drag before a shape is drawn. */
const PICK_TOLERANCE = 6;
const HANDLE_TOLERANCE = 9;
const HANDLE_SIZE = 9;
const MIN_DRAG = 4;
/** In source pixels. */
const DUPLICATE_OFFSET = 12;

const measureContext = (() => {
  let ctx: CanvasRenderingContext2D | undefined;
  return () => (ctx ??= document.createElement('canvas').getContext('2d')!);
})();

/** Text width with the canvas's own metrics, as the composition draws it. */
export const measureText: Measure = (text, font) => {
  const ctx = measureContext();
  ctx.font = font;
  return ctx.measureText(text).width;
};

export function stepSize(width: number): number {
  return 20 + width * 3;
}

let counter = 0;
function newId(): string {
  counter += 1;
  return `a${Date.now().toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

const CURSORS: Record<Handle, string> = {
  start: 'move',
  end: 'move',
  nw: 'nwse-resize',
  se: 'nwse-resize',
  ne: 'nesw-resize',
  sw: 'nesw-resize',
  n: 'ns-resize',
  s: 'ns-resize',
  e: 'ew-resize',
  w: 'ew-resize',
};

type Drag =
  | { type: 'draw'; id: string; kind: ShapeAnnotation['kind']; start: Point; client: Point; drawn: boolean }
  | { type: 'move'; id: string; start: Point; original: Annotation }
  | { type: 'resize'; id: string; handle: Handle; original: Annotation };

interface TextSession {
  id: string;
  input: HTMLTextAreaElement;
  /** What Escape goes back to; undefined for a new text. */
  original: TextAnnotation | undefined;
  base: TextAnnotation;
}

/** The annotation tools' state: the selection and the style new annotations take. */
export class Annotator {
  readonly editor: Editor;
  style: AnnotationStyle = { color: '#ff3b30', width: 4, size: 24, weight: 700 };
  selected: string | undefined;
  private readonly listeners: (() => void)[] = [];
  private readonly overlay: HTMLCanvasElement;
  private readonly stage: HTMLDivElement;
  private drag: Drag | undefined;
  private hovered: string | undefined;
  private text: TextSession | undefined;
  /** The edits before the drag or text edit under way, which becomes one undo step. */
  private gesture: { before: Edits; source: Source | undefined } | undefined;

  constructor(editor: Editor) {
    this.editor = editor;
    this.stage = byId('stage', HTMLDivElement);
    this.overlay = byId('annotate-overlay', HTMLCanvasElement);
    this.overlay.addEventListener('pointerdown', (event) => this.pointerDown(event));
    this.overlay.addEventListener('pointermove', (event) => this.pointerMove(event));
    this.overlay.addEventListener('pointerup', (event) => this.pointerUp(event));
    this.overlay.addEventListener('pointercancel', () => this.endDrag());
    this.overlay.addEventListener('pointerleave', () => this.setHovered(undefined));
    this.overlay.addEventListener('dblclick', (event) => this.doubleClick(event));
    this.overlay.addEventListener('blur', () => this.overlay.classList.remove('annotate-pointer-focus'));
    editor.onChange(() => {
      if (this.selected && !this.find(this.selected)) this.select(undefined);
    });
    editor.onRender(() => this.draw());
    editor.onTool((tool) => {
      this.endDrag();
      if (tool === 'crop') {
        this.commitText();
        this.select(undefined);
      }
      this.overlay.style.cursor = '';
      this.scheduleDraw();
      this.notify();
    });
  }

  /** Hears of selection and style changes. */
  onUpdate(listener: () => void): void {
    this.listeners.push(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private find(id: string): Annotation | undefined {
    return this.editor.edits.annotations.find((annotation) => annotation.id === id);
  }

  selection(): Annotation | undefined {
    return this.selected ? this.find(this.selected) : undefined;
  }

  /** The selection's colour, width and text style become the ones new annotations take. */
  select(id: string | undefined): void {
    this.selected = id;
    // Read by the end-to-end tests.
    if (id) this.overlay.dataset.selected = id;
    else delete this.overlay.dataset.selected;
    const annotation = this.selection();
    if (annotation) {
      if (annotation.kind !== 'blur' && annotation.kind !== 'pixelate') this.style = { ...this.style, color: annotation.color };
      if (annotation.kind === 'text') this.style = { ...this.style, size: annotation.size, weight: annotation.weight };
      else if (annotation.kind !== 'step') this.style = { ...this.style, width: annotation.width };
    }
    this.scheduleDraw();
    this.notify();
  }

  /** Also restyles the selection, as one undo step per run of changes. */
  setStyle(change: Partial<AnnotationStyle>): void {
    this.style = { ...this.style, ...change };
    const annotation = this.selection();
    if (annotation) {
      let next: Annotation = annotation;
      if (change.color !== undefined && annotation.kind !== 'blur' && annotation.kind !== 'pixelate') next = { ...next, color: change.color };
      const width = change.width;
      if (next.kind === 'text') next = { ...next, size: change.size ?? next.size, weight: change.weight ?? next.weight };
      else if (width !== undefined) next = next.kind === 'step' ? { ...next, size: stepSize(width) } : { ...next, width };
      if (JSON.stringify(next) !== JSON.stringify(annotation)) this.replace(next, `style-${annotation.id}-${Object.keys(change).join()}`);
    }
    this.notify();
  }

  deleteSelected(): boolean {
    const annotation = this.selection();
    if (!annotation || this.busy()) return false;
    this.select(undefined);
    this.editor.edit({ annotations: renumberSteps(this.editor.edits.annotations.filter((entry) => entry.id !== annotation.id)) });
    this.notify();
    return true;
  }

  /** Ctrl/⌘+D: a copy a little down and to the right, selected; a step marker's copy takes the next number. */
  duplicateSelected(): boolean {
    const annotation = this.selection();
    if (!annotation || this.busy()) return false;
    const copy = { ...moved(annotation, DUPLICATE_OFFSET, DUPLICATE_OFFSET), id: newId() };
    this.editor.edit({ annotations: renumberSteps([...this.editor.edits.annotations, copy]) });
    this.select(copy.id);
    return true;
  }

  /** [ and ]: the previous or next annotation in drawing order, round the ends, for keyboard users. */
  selectAdjacent(step: 1 | -1): boolean {
    const all = this.editor.edits.annotations;
    if (all.length === 0 || this.busy()) return false;
    const at = all.findIndex((annotation) => annotation.id === this.selected);
    const next = at === -1 ? (step === 1 ? 0 : all.length - 1) : (at + step + all.length) % all.length;
    this.select(all[next]!.id);
    return true;
  }

  /** Enter: edits the selected text, as a double-click does. */
  editSelected(): boolean {
    const annotation = this.selection();
    if (annotation?.kind !== 'text' || this.busy()) return false;
    this.openText(annotation);
    return true;
  }

  /** Arrow keys: a run of nudges is one undo step. */
  nudge(dx: number, dy: number): boolean {
    const annotation = this.selection();
    if (!annotation || this.busy()) return false;
    this.replace(moved(annotation, dx, dy), `nudge-${annotation.id}`);
    return true;
  }

  /** Escape: ends what is under way, else drops the selection. */
  escape(): boolean {
    if (this.text) {
      this.cancelText();
      return true;
    }
    if (this.drag) {
      this.endDrag(false);
      return true;
    }
    if (this.selected) {
      this.select(undefined);
      return true;
    }
    return false;
  }

  /** Whether a pointer gesture or a text edit is under way (undo waits for it). */
  busy(): boolean {
    return this.drag !== undefined || this.text !== undefined;
  }

  private replace(annotation: Annotation, merge?: string): void {
    this.editor.edit({ annotations: this.editor.edits.annotations.map((entry) => (entry.id === annotation.id ? annotation : entry)) }, { merge });
  }

  /**
   * A drag or a text edit shows its draft in the preview without touching the history, and
   * records one undo step when it ends, however long it was held still.
   */
  private beginGesture(): void {
    this.gesture = { before: this.editor.edits, source: this.editor.source };
  }

  private gestureEdit(annotations: Annotation[]): void {
    if (!this.gesture) return;
    this.editor.edits = { ...this.editor.edits, annotations };
    this.editor.redraw();
  }

  /** `keep` false puts back what was there before (Escape). */
  private endGesture(keep = true): void {
    const gesture = this.gesture;
    this.gesture = undefined;
    // A new source replaced the edits meanwhile: the draft belonged to the old one.
    if (!gesture || this.editor.source !== gesture.source) return;
    const draft = this.editor.edits.annotations;
    this.editor.edits = gesture.before;
    if (keep && draft !== gesture.before.annotations) this.editor.edit({ annotations: draft });
    else this.editor.redraw();
  }

  private active(): boolean {
    return this.editor.tool !== 'crop' && this.editor.source !== undefined && this.editor.currentView() !== undefined;
  }

  /** Source pixels per CSS pixel, for tolerances. */
  private perCssPixel(): number {
    return 1 / (this.editor.currentView()?.scale ?? 1);
  }

  private pointerDown(event: PointerEvent): void {
    if (event.button !== 0 || !this.active()) return;
    if (this.text) {
      // A click away from the text field ends the edit, and starts nothing else.
      this.commitText();
      event.preventDefault();
      return;
    }
    const p = this.point(event);
    if (!p) return;
    // Focused so Delete and the arrows act here, without the keyboard's focus ring.
    this.overlay.classList.add('annotate-pointer-focus');
    this.overlay.focus({ preventScroll: true });
    const unit = this.perCssPixel();
    const tool = this.editor.tool;
    const selection = this.selection();
    const handle = selection ? handleAt(selection, p, HANDLE_TOLERANCE * unit, measureText) : undefined;
    if (selection && handle) {
      this.startDrag(event, { type: 'resize', id: selection.id, handle, original: selection });
      return;
    }
    if (tool === 'select') {
      const hit = topmostAt(this.editor.edits.annotations, p, PICK_TOLERANCE * unit, measureText);
      this.select(hit?.id);
      if (hit) this.startDrag(event, { type: 'move', id: hit.id, start: p, original: hit });
      return;
    }
    if (tool === 'text') {
      const hit = topmostAt(this.editor.edits.annotations, p, PICK_TOLERANCE * unit, measureText);
      if (hit?.kind === 'text') {
        this.select(hit.id);
        this.openText(hit);
      } else {
        const { color, size, weight } = this.style;
        // The click marks the middle of the first line.
        this.openText({ id: newId(), kind: 'text', x: p.x, y: p.y - (size * TEXT_LINE_HEIGHT) / 2, text: '', color, size, weight });
      }
      event.preventDefault();
      return;
    }
    if (tool === 'step') {
      const step: Annotation = { id: newId(), kind: 'step', x: p.x, y: p.y, n: nextStepNumber(this.editor.edits.annotations), color: this.style.color, size: stepSize(this.style.width) };
      this.beginGesture();
      this.gestureEdit([...this.editor.edits.annotations, step]);
      this.select(step.id);
      // Placed at once; a drag before letting go moves it, still as one step.
      this.drag = { type: 'move', id: step.id, start: p, original: step };
      this.overlay.setPointerCapture(event.pointerId);
      return;
    }
    if ((DRAWING_TOOLS as readonly string[]).includes(tool)) {
      this.select(undefined);
      this.startDrag(event, { type: 'draw', id: newId(), kind: tool as ShapeAnnotation['kind'], start: p, client: { x: event.clientX, y: event.clientY }, drawn: false });
    }
  }

  private startDrag(event: PointerEvent, drag: Drag): void {
    this.drag = drag;
    this.beginGesture();
    this.overlay.setPointerCapture(event.pointerId);
    event.preventDefault();
  }

  /** Source pixels, to a hundredth: enough for any export scale, and short in storage. */
  private point(event: MouseEvent): Point | undefined {
    const p = this.editor.toSource(event.clientX, event.clientY);
    return p && { x: Math.round(p.x * 100) / 100, y: Math.round(p.y * 100) / 100 };
  }

  private pointerMove(event: PointerEvent): void {
    const p = this.point(event);
    if (!p) return;
    const drag = this.drag;
    if (!drag) {
      this.hover(p);
      return;
    }
    const annotations = this.editor.edits.annotations;
    if (drag.type === 'draw') {
      if (!drag.drawn && Math.hypot(event.clientX - drag.client.x, event.clientY - drag.client.y) < MIN_DRAG) return;
      const end = event.shiftKey ? (isLineKind(drag.kind) ? snapAngle(drag.start, p) : squareCorner(drag.start, p)) : p;
      const shape = normalised<ShapeAnnotation>({ id: drag.id, kind: drag.kind, x1: drag.start.x, y1: drag.start.y, x2: end.x, y2: end.y, color: this.style.color, width: this.style.width });
      // Lines keep their direction: (x1, y1) is where the drag began.
      const next = isLineKind(drag.kind) ? { ...shape, x1: drag.start.x, y1: drag.start.y, x2: end.x, y2: end.y } : shape;
      if (!drag.drawn) {
        if (!isDrawn(next, MIN_DRAG * this.perCssPixel())) return;
        drag.drawn = true;
        this.gestureEdit([...annotations, next]);
        this.select(drag.id);
      } else {
        this.gestureEdit(annotations.map((entry) => (entry.id === drag.id ? next : entry)));
      }
      return;
    }
    const next = drag.type === 'move' ? moved(drag.original, p.x - drag.start.x, p.y - drag.start.y) : resized(drag.original, drag.handle, p, measureText, event.shiftKey);
    this.gestureEdit(annotations.map((entry) => (entry.id === drag.id ? next : entry)));
  }

  private pointerUp(event: PointerEvent): void {
    if (!this.drag) return;
    if (this.overlay.hasPointerCapture(event.pointerId)) this.overlay.releasePointerCapture(event.pointerId);
    this.endDrag();
  }

  private endDrag(keep = true): void {
    if (!this.drag) return;
    this.drag = undefined;
    this.endGesture(keep);
    this.scheduleDraw();
  }

  private hover(p: Point): void {
    if (!this.active()) {
      this.overlay.style.cursor = '';
      return;
    }
    const unit = this.perCssPixel();
    const selection = this.selection();
    const handle = selection ? handleAt(selection, p, HANDLE_TOLERANCE * unit, measureText) : undefined;
    const tool = this.editor.tool;
    let cursor = tool === 'select' ? 'default' : tool === 'text' ? 'text' : 'crosshair';
    const under = tool === 'select' && !handle ? topmostAt(this.editor.edits.annotations, p, PICK_TOLERANCE * unit, measureText) : undefined;
    if (handle) cursor = CURSORS[handle];
    else if (under) cursor = 'move';
    this.overlay.style.cursor = cursor;
    this.setHovered(under?.id);
  }

  /** The select tool outlines what a click would pick. */
  private setHovered(id: string | undefined): void {
    if (id === this.hovered) return;
    this.hovered = id;
    this.scheduleDraw();
  }

  private doubleClick(event: MouseEvent): void {
    if (!this.active() || this.text) return;
    const p = this.point(event);
    if (!p) return;
    const hit = topmostAt(this.editor.edits.annotations, p, PICK_TOLERANCE * this.perCssPixel(), measureText);
    if (hit?.kind !== 'text') return;
    this.select(hit.id);
    this.openText(hit);
  }

  /** Double-click or the text tool: a text field over the preview; the composition draws the text as it is typed. */
  openText(annotation: TextAnnotation): void {
    this.commitText();
    const existing = this.find(annotation.id) as TextAnnotation | undefined;
    const input = document.createElement('textarea');
    input.className = 'annotate-text-input';
    input.setAttribute('aria-label', 'Annotation text (Enter to finish, Shift+Enter for a new line, Escape to cancel)');
    input.spellcheck = false;
    input.value = existing?.text ?? '';
    input.rows = 1;
    this.stage.append(input);
    this.text = { id: annotation.id, input, original: existing, base: existing ?? annotation };
    this.beginGesture();
    input.addEventListener('input', () => this.typed());
    input.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.commitText();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.cancelText();
      }
    });
    input.addEventListener('blur', () => this.commitText());
    this.placeText();
    input.focus({ preventScroll: true });
    input.setSelectionRange(input.value.length, input.value.length);
    this.scheduleDraw();
  }

  private typed(): void {
    const session = this.text;
    if (!session) return;
    const value = session.input.value;
    const current = this.find(session.id) as TextAnnotation | undefined;
    const annotations = this.editor.edits.annotations;
    if (value === '') {
      if (current) this.gestureEdit(annotations.filter((entry) => entry.id !== session.id));
    } else if (current) {
      this.gestureEdit(annotations.map((entry) => (entry.id === session.id ? { ...current, text: value } : entry)));
    } else {
      this.gestureEdit([...annotations, { ...session.base, text: value }]);
    }
    this.placeText();
  }

  private closeText(keep: boolean): TextSession | undefined {
    const session = this.text;
    if (!session) return undefined;
    this.text = undefined;
    this.endGesture(keep);
    session.input.remove();
    this.overlay.classList.add('annotate-pointer-focus');
    this.overlay.focus({ preventScroll: true });
    return session;
  }

  /** An emptied text is removed; what remains is selected. */
  commitText(): void {
    const session = this.closeText(true);
    if (!session) return;
    this.select(this.find(session.id) ? session.id : undefined);
  }

  /** Escape: the text as it was, and no undo step. */
  private cancelText(): void {
    const session = this.closeText(false);
    if (session) this.select(session.original ? session.id : undefined);
  }

  /** The field sits where the composition draws the text, at the preview's scale. */
  private placeText(): void {
    const session = this.text;
    const view = this.editor.currentView();
    if (!session || !view) return;
    const annotation = (this.find(session.id) as TextAnnotation | undefined) ?? session.base;
    const input = session.input;
    const preview = this.overlay.getBoundingClientRect();
    const stage = this.stage.getBoundingClientRect();
    const size = annotation.size * view.scale;
    const lines = input.value.split('\n');
    const width = Math.max(...lines.map((line) => measureText(line, textFont(annotation)))) * view.scale;
    input.style.left = `${preview.x - stage.x + view.box.x + (annotation.x - view.crop.x) * view.scale}px`;
    input.style.top = `${preview.y - stage.y + view.box.y + (annotation.y - view.crop.y) * view.scale}px`;
    input.style.font = `${annotation.weight} ${size}px/${TEXT_LINE_HEIGHT} ${ANNOTATION_FONT}`;
    input.style.width = `${width + size}px`;
    input.style.height = `${lines.length * size * TEXT_LINE_HEIGHT}px`;
    input.style.caretColor = annotation.color;
  }

  /** The overlay is drawn with the preview, so it always follows the preview's placement. */
  scheduleDraw(): void {
    this.editor.redraw();
  }

  /** The selection's outline and handles, in the preview's CSS pixels. */
  draw(): void {
    const overlay = this.overlay;
    const ratio = window.devicePixelRatio || 1;
    const box = overlay.getBoundingClientRect();
    const width = Math.max(1, Math.round(box.width * ratio));
    const height = Math.max(1, Math.round(box.height * ratio));
    // Setting the size empties the bitmap and resets the state.
    overlay.width = width;
    overlay.height = height;
    // Unaccelerated: the accelerated canvas was seen to keep an earlier frame's handles after
    // they were cleared (Chromium), and a few handles need no GPU.
    const ctx = overlay.getContext('2d', { willReadFrequently: true });
    if (!ctx) return;
    this.placeText();
    const view = this.editor.currentView();
    // The page's mapping to the source, for the end-to-end tests to point at source pixels.
    if (view) overlay.dataset.view = JSON.stringify(view);
    else delete overlay.dataset.view;
    if (!view || this.editor.tool === 'crop') return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const toPage = (p: Point): Point => ({ x: view.box.x + (p.x - view.crop.x) * view.scale, y: view.box.y + (p.y - view.crop.y) * view.scale });
    const accent = '#4f46e5';
    const hovered = this.hovered && this.hovered !== this.selected && !this.drag ? this.find(this.hovered) : undefined;
    if (hovered) {
      ctx.strokeStyle = accent;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      if (isLineKind(hovered.kind)) {
        const line = hovered as ShapeAnnotation;
        const a = toPage({ x: line.x1, y: line.y1 });
        const b = toPage({ x: line.x2, y: line.y2 });
        ctx.lineWidth = Math.max(2, line.width * view.scale + 4);
        ctx.globalAlpha = 0.35;
        ctx.lineCap = 'round';
        ctx.moveTo(a.x, a.y);
        ctx.lineTo(b.x, b.y);
      } else {
        const bounds = boundsOf(hovered, measureText);
        const a = toPage(bounds);
        const b = toPage({ x: bounds.x + bounds.width, y: bounds.y + bounds.height });
        ctx.rect(a.x - 2.5, a.y - 2.5, b.x - a.x + 5, b.y - a.y + 5);
      }
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    const annotation = this.selection();
    if (!annotation) return;
    ctx.lineWidth = 1;
    if (!isLineKind(annotation.kind)) {
      const bounds = boundsOf(annotation, measureText);
      const a = toPage(bounds);
      const b = toPage({ x: bounds.x + bounds.width, y: bounds.y + bounds.height });
      const pad = isBoxKind(annotation.kind) ? 0 : 3;
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = '#ffffff';
      ctx.strokeRect(a.x - pad - 0.5, a.y - pad - 0.5, b.x - a.x + 2 * pad + 1, b.y - a.y + 2 * pad + 1);
      ctx.strokeStyle = accent;
      ctx.lineDashOffset = 3.5;
      ctx.strokeRect(a.x - pad - 0.5, a.y - pad - 0.5, b.x - a.x + 2 * pad + 1, b.y - a.y + 2 * pad + 1);
      ctx.setLineDash([]);
    }
    if (this.text) return;
    for (const handle of handlesOf(annotation, measureText)) {
      const p = toPage(handle);
      ctx.beginPath();
      if (isLineKind(annotation.kind)) ctx.arc(p.x, p.y, HANDLE_SIZE / 2 + 1, 0, Math.PI * 2);
      else ctx.rect(Math.round(p.x - HANDLE_SIZE / 2) + 0.5, Math.round(p.y - HANDLE_SIZE / 2) + 0.5, HANDLE_SIZE, HANDLE_SIZE);
      ctx.fillStyle = '#ffffff';
      ctx.fill();
      ctx.strokeStyle = accent;
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
  }

}
