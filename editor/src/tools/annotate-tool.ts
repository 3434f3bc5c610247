/**
 * Drawing and editing annotations on the preview: drag to draw, the new shape selected, handles to
 * resize, drag to move. Each change goes through the editor (a draft while dragging, one undo step).
 */
import { drawHover, drawSelection } from './annotate-overlay.ts';
import { TextField } from './annotate-text.ts';
import { handleAt, isDrawn, moved, nextStepNumber, resized, TEXT_LINE_HEIGHT, topmostAt } from '../model/annotation-geometry.ts';
import type { Point } from '../model/annotation-geometry.ts';
import { byId } from '../dom.ts';
import type { Editor } from '../editor.ts';
import {
  addAnnotation,
  adjacentAnnotation,
  clampPoint,
  clampToPicture,
  duplicateAnnotation,
  findAnnotation,
  onPicture,
  pressGesture,
  removeAnnotation,
  replaceAnnotation,
  restyled,
  showsHandles,
  stepSize,
  styleOf,
} from '../model/editor-model.ts';
import type { AnnotationStyle } from '../model/editor-model.ts';
import type { Annotation, PenAnnotation, ShapeAnnotation, TextAnnotation } from '../model/edits.ts';
import { flatten, simplify } from '../model/pen.ts';
import {
  CURSORS,
  DUPLICATE_OFFSET,
  type Drag,
  HANDLE_TOLERANCE,
  MIN_DRAG,
  measureText,
  newId,
  PEN_TOLERANCE,
  PICK_TOLERANCE,
  SHAPE_TOOLS,
  shapeOfDrag,
} from './annotate-gestures.ts';

export type { AnnotationStyle } from '../model/editor-model.ts';

/** The annotation tools' state: the selection and the style new annotations take. */
export class Annotator {
  readonly editor: Editor;
  style: AnnotationStyle = { color: '#ff3b30', width: 4, size: 24, weight: 700 };
  selected: string | undefined;
  private readonly listeners: (() => void)[] = [];
  private readonly overlay = byId('annotate-overlay', HTMLCanvasElement);
  private drag: Drag | undefined;
  private hovered: string | undefined;
  private readonly text: TextField;

  constructor(editor: Editor) {
    this.editor = editor;
    this.text = new TextField(editor, byId('stage', HTMLDivElement), this.overlay, measureText, (id) => this.select(id));
    const overlay = this.overlay;
    overlay.addEventListener('pointerdown', (event) => this.pointerDown(event));
    overlay.addEventListener('pointermove', (event) => this.pointerMove(event));
    overlay.addEventListener('pointerup', (event) => this.pointerUp(event));
    overlay.addEventListener('pointercancel', () => this.endDrag());
    overlay.addEventListener('pointerleave', () => this.setHovered(undefined));
    overlay.addEventListener('dblclick', (event) => this.doubleClick(event));
    overlay.addEventListener('blur', () => overlay.classList.remove('annotate-pointer-focus'));
    editor.onChange(() => {
      if (this.selected && !this.selection()) this.select(undefined);
    });
    editor.onRender(() => this.draw());
    editor.onTool((tool) => {
      this.endDrag();
      if (tool === 'crop') {
        this.text.commit();
        this.select(undefined);
      }
      overlay.style.cursor = '';
      this.editor.redraw();
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

  selection(): Annotation | undefined {
    return findAnnotation(this.editor.edits, this.selected);
  }

  /** The selection's colour, width and text style become the ones new annotations take. */
  select(id: string | undefined): void {
    this.selected = id;
    // Read by the end-to-end tests.
    if (id) this.overlay.dataset.selected = id;
    else delete this.overlay.dataset.selected;
    const annotation = this.selection();
    if (annotation) this.style = styleOf(annotation, this.style);
    this.editor.redraw();
    this.notify();
  }

  /** Also restyles the selection, as one undo step per run of changes. */
  setStyle(change: Partial<AnnotationStyle>): void {
    this.style = { ...this.style, ...change };
    const annotation = this.selection();
    if (annotation) {
      const next = restyled(annotation, change);
      if (JSON.stringify(next) !== JSON.stringify(annotation))
        this.editor.edit(replaceAnnotation(this.editor.edits, next), { merge: `style-${annotation.id}-${Object.keys(change).join()}` });
    }
    this.notify();
  }

  deleteSelected(): void {
    const id = this.selected;
    if (!id) return;
    this.select(undefined);
    this.editor.edit(removeAnnotation(this.editor.edits, id));
  }

  /** Ctrl/⌘+D: a copy a little down and to the right, selected. */
  duplicateSelected(): void {
    if (!this.selected) return;
    const id = newId();
    this.editor.edit(duplicateAnnotation(this.editor.edits, this.selected, id, DUPLICATE_OFFSET));
    this.select(id);
  }

  /** [ and ]: for keyboard users. */
  selectAdjacent(step: 1 | -1): void {
    this.select(adjacentAnnotation(this.editor.edits, this.selected, step));
  }

  /** Enter: edits the selected text, as a double-click does. */
  editSelected(): void {
    const annotation = this.selection();
    if (annotation?.kind === 'text') this.text.edit(annotation);
  }

  /** Arrow keys: a run of nudges is one undo step. */
  nudge(dx: number, dy: number): void {
    const annotation = this.selection();
    if (annotation) this.editor.edit(replaceAnnotation(this.editor.edits, moved(annotation, dx, dy)), { merge: `nudge-${annotation.id}` });
  }

  canEscape(): boolean {
    return this.text.open || this.drag !== undefined || this.selected !== undefined;
  }

  /** Escape: ends what is under way, else drops the selection. */
  escape(): void {
    if (this.text.open) this.text.cancel();
    else if (this.drag) this.endDrag(false);
    else this.select(undefined);
  }

  /** Whether a pointer gesture or a text edit is under way (undo waits for it). */
  busy(): boolean {
    return this.drag !== undefined || this.text.open;
  }

  /** Ends a text edit, keeping it (before undo from a button, say). */
  commitText(): void {
    this.text.commit();
  }

  private active(): boolean {
    return this.editor.tool !== 'crop' && this.editor.source !== undefined && this.editor.currentView() !== undefined;
  }

  /** Source pixels per CSS pixel, for tolerances. */
  private perCssPixel(): number {
    return 1 / (this.editor.currentView()?.scale ?? 1);
  }

  /** Source pixels, to a hundredth: enough for any export scale, and short in storage. */
  private point(event: MouseEvent): Point | undefined {
    const p = this.editor.toSource(event.clientX, event.clientY);
    return p && { x: Math.round(p.x * 100) / 100, y: Math.round(p.y * 100) / 100 };
  }

  /** The picture as shown: the source after its crop. Nothing is stored outside it. */
  private picture() {
    return this.editor.currentView()!.crop;
  }

  private pointerDown(event: PointerEvent): void {
    if (event.button !== 0 || !this.active()) return;
    if (this.text.open) {
      // A click away from the text field ends the edit, and starts nothing else.
      this.text.commit();
      event.preventDefault();
      return;
    }
    const p = this.point(event);
    if (!p) return;
    // Focused so Delete and the arrows act here, without the keyboard's focus ring.
    this.overlay.classList.add('annotate-pointer-focus');
    this.overlay.focus({ preventScroll: true });
    const selection = this.selection();
    const handle = selection ? this.handleUnder(selection, p) : undefined;
    const press = pressGesture(this.editor.tool, { onHandle: handle !== undefined, onPicture: onPicture(p, this.picture()) });
    if (press === 'resize') this.startDrag(event, { type: 'resize', id: selection!.id, handle: handle!, original: selection! });
    else if (press === 'pick') this.pressSelect(event, p);
    else if (press === 'draw') this.pressDraw(event, p);
    else this.select(undefined);
  }

  /** The selection's handle under `p`, where the tool shows handles. */
  private handleUnder(selection: Annotation, p: Point) {
    return showsHandles(this.editor.tool) ? handleAt(selection, p, HANDLE_TOLERANCE * this.perCssPixel(), measureText) : undefined;
  }

  private pressSelect(event: PointerEvent, p: Point): void {
    const hit = topmostAt(this.editor.edits.annotations, p, PICK_TOLERANCE * this.perCssPixel(), measureText);
    this.select(hit?.id);
    if (hit) this.startDrag(event, { type: 'move', id: hit.id, start: p, original: hit });
  }

  private pressDraw(event: PointerEvent, p: Point): void {
    const tool = this.editor.tool;
    const { color, width, size, weight } = this.style;
    if (tool === 'text') {
      const hit = topmostAt(this.editor.edits.annotations, p, PICK_TOLERANCE * this.perCssPixel(), measureText);
      event.preventDefault();
      if (hit?.kind === 'text') {
        this.select(hit.id);
        this.text.edit(hit);
        return;
      }
      // The click marks the middle of the first line.
      this.text.edit({ id: newId(), kind: 'text', x: p.x, y: p.y - (size * TEXT_LINE_HEIGHT) / 2, text: '', color, size, weight } satisfies TextAnnotation);
    } else if (tool === 'step') {
      const step: Annotation = { id: newId(), kind: 'step', x: p.x, y: p.y, n: nextStepNumber(this.editor.edits.annotations), color, size: stepSize(width) };
      // Placed at once; a drag before letting go moves it, still as one step.
      this.editor.draft(addAnnotation(this.editor.edits, step));
      this.select(step.id);
      this.startDrag(event, { type: 'move', id: step.id, start: p, original: step });
    } else if (tool === 'pen') {
      this.select(undefined);
      this.startDrag(event, { type: 'pen', id: newId(), samples: [p] });
    } else if (SHAPE_TOOLS.has(tool)) {
      this.select(undefined);
      this.startDrag(event, {
        type: 'draw',
        id: newId(),
        kind: tool as ShapeAnnotation['kind'],
        start: p,
        client: { x: event.clientX, y: event.clientY },
        drawn: false,
      });
    }
  }

  private startDrag(event: PointerEvent, drag: Drag): void {
    this.drag = drag;
    this.overlay.setPointerCapture(event.pointerId);
    event.preventDefault();
  }

  private pointerMove(event: PointerEvent): void {
    const raw = this.point(event);
    const drag = this.drag;
    if (!raw) return;
    if (!drag) {
      this.hover(raw);
      return;
    }
    const edits = this.editor.edits;
    if (drag.type === 'draw') {
      this.drawShape(drag, clampPoint(raw, this.picture()), event);
    } else if (drag.type === 'pen') {
      drag.samples.push(clampPoint(raw, this.picture()));
      const first = drag.samples[0]!;
      // A press that hardly moves draws no dot.
      if (!findAnnotation(edits, drag.id) && Math.hypot(raw.x - first.x, raw.y - first.y) < MIN_DRAG * this.perCssPixel()) return;
      const pen = this.penOf(drag);
      this.editor.draft(findAnnotation(edits, drag.id) ? replaceAnnotation(edits, pen) : addAnnotation(edits, pen));
      if (this.selected !== drag.id) this.select(drag.id);
    } else {
      const next =
        drag.type === 'move'
          ? moved(drag.original, raw.x - drag.start.x, raw.y - drag.start.y)
          : resized(drag.original, drag.handle, raw, measureText, event.shiftKey);
      this.editor.draft(replaceAnnotation(edits, next));
    }
  }

  /** The samples thinned to what the eye sees at this zoom. */
  private penOf(drag: Extract<Drag, { type: 'pen' }>): PenAnnotation {
    const points = simplify(drag.samples, PEN_TOLERANCE * this.perCssPixel());
    return { id: drag.id, kind: 'pen', points: flatten(points), color: this.style.color, width: this.style.width };
  }

  private drawShape(drag: Extract<Drag, { type: 'draw' }>, p: Point, event: PointerEvent): void {
    if (!drag.drawn && Math.hypot(event.clientX - drag.client.x, event.clientY - drag.client.y) < MIN_DRAG) return;
    const next = shapeOfDrag(drag, p, event.shiftKey, this.style);
    const edits = this.editor.edits;
    if (drag.drawn) {
      this.editor.draft(replaceAnnotation(edits, next));
    } else if (isDrawn(next, MIN_DRAG * this.perCssPixel())) {
      drag.drawn = true;
      this.editor.draft(addAnnotation(edits, next));
      this.select(drag.id);
    }
  }

  private pointerUp(event: PointerEvent): void {
    if (!this.drag) return;
    if (this.overlay.hasPointerCapture(event.pointerId)) this.overlay.releasePointerCapture(event.pointerId);
    this.endDrag();
  }

  /**
   * `keep` false puts back what was there before (Escape); a drag that drew nothing leaves no
   * step, and one that took a shape wholly off the picture is undone.
   */
  private endDrag(keep = true): void {
    const drag = this.drag;
    if (!drag) return;
    this.drag = undefined;
    const moved = findAnnotation(this.editor.edits, drag.id);
    const offPicture = moved !== undefined && this.editor.currentView() !== undefined && clampToPicture(moved, this.picture(), measureText) === undefined;
    this.editor.endDraft(keep && !offPicture);
    this.editor.redraw();
  }

  private hover(p: Point): void {
    if (!this.active()) {
      this.overlay.style.cursor = '';
      return;
    }
    const unit = this.perCssPixel();
    const selection = this.selection();
    const handle = selection ? this.handleUnder(selection, p) : undefined;
    const tool = this.editor.tool;
    const under = tool === 'select' && !handle ? topmostAt(this.editor.edits.annotations, p, PICK_TOLERANCE * unit, measureText) : undefined;
    const drawing = onPicture(p, this.picture()) ? (tool === 'text' ? 'text' : 'crosshair') : 'not-allowed';
    this.overlay.style.cursor = handle ? CURSORS[handle] : under ? 'move' : tool === 'select' ? 'default' : drawing;
    this.setHovered(under?.id);
  }

  /** The select tool outlines what a click would pick. */
  private setHovered(id: string | undefined): void {
    if (id === this.hovered) return;
    this.hovered = id;
    this.editor.redraw();
  }

  private doubleClick(event: MouseEvent): void {
    if (!this.active() || this.text.open) return;
    const p = this.point(event);
    if (!p) return;
    const hit = topmostAt(this.editor.edits.annotations, p, PICK_TOLERANCE * this.perCssPixel(), measureText);
    if (hit?.kind !== 'text') return;
    this.select(hit.id);
    this.text.edit(hit);
  }

  /** The overlay is drawn with the preview, so it always follows the preview's placement and zoom. */
  draw(): void {
    const overlay = this.overlay;
    const ratio = window.devicePixelRatio || 1;
    const box = overlay.getBoundingClientRect();
    // Setting the size empties the bitmap and resets the state.
    overlay.width = Math.max(1, Math.round(box.width * ratio));
    overlay.height = Math.max(1, Math.round(box.height * ratio));
    // Unaccelerated: the accelerated canvas was seen to keep an earlier frame's handles after
    // they were cleared (Chromium), and a few handles need no GPU.
    const ctx = overlay.getContext('2d', { willReadFrequently: true });
    if (!ctx) return;
    this.text.place();
    const view = this.editor.currentView();
    // The page's mapping to the source, for the end-to-end tests to point at source pixels.
    if (view) overlay.dataset.view = JSON.stringify(view);
    else delete overlay.dataset.view;
    if (!view || this.editor.tool === 'crop') return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const hovered = this.hovered && this.hovered !== this.selected && !this.drag ? findAnnotation(this.editor.edits, this.hovered) : undefined;
    if (hovered) drawHover(ctx, view, hovered, measureText);
    const selection = this.selection();
    if (selection) drawSelection(ctx, view, selection, measureText, showsHandles(this.editor.tool) && !this.text.open);
  }
}
