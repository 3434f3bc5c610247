/**
 * The crop tool: a rectangle over the whole source with handles, ratio presets and number fields.
 * Nothing changes until Apply, which records one undo step; the source itself is never cut.
 */
import { arrowStep } from '../actions/editor-commands.ts';
import { byId, h } from '../dom.ts';
import type { Editor } from '../editor.ts';
import type { Rect } from '../model/layout.ts';
import type { Source } from '../render/sources.ts';
import type { Command } from '../actions/commands.ts';
import { CROP_RATIOS, HANDLES, clampCrop, cropToStore, fitRatio, moveCrop, resizeCrop, sameRect, setCropField, wholeOf } from '../model/crop-math.ts';
import type { CropField, CropRatio, Handle } from '../model/crop-math.ts';

const TOOL = 'crop';
/** A press that moves less than this (CSS px) is a click, not a new crop. */
const CLICK_SLOP = 3;

interface Drag {
  kind: Handle | 'move' | 'new';
  pointerId: number;
  clientX: number;
  clientY: number;
  start: Rect;
  moved: boolean;
}

const FIELDS: readonly { field: CropField; label: string; name: string }[] = [
  { field: 'x', label: 'X', name: 'Crop left edge, px' },
  { field: 'y', label: 'Y', name: 'Crop top edge, px' },
  { field: 'width', label: 'W', name: 'Crop width, px' },
  { field: 'height', label: 'H', name: 'Crop height, px' },
];

/** The crop tool's elements: its button (in the page, so the toolbar is laid out before the script), the overlay and the bar. */
function buildCropDom(stage: HTMLElement) {
  const button = byId('crop-button', HTMLButtonElement);
  const hole = h('div', { class: 'crop-hole' });
  const size = h('span', { class: 'crop-size', 'aria-hidden': 'true' });
  const handles = HANDLES.map((handle) => h('span', { class: 'crop-handle', 'data-handle': handle, 'aria-hidden': 'true' }));
  const boxAttributes = {
    class: 'crop-box',
    id: 'crop-box',
    tabindex: '0',
    role: 'group',
    'aria-roledescription': 'crop area',
    'aria-describedby': 'crop-help',
  };
  const box = h('div', boxAttributes, h('span', { class: 'crop-grid', 'aria-hidden': 'true' }), size, ...handles);
  const overlay = h('div', { class: 'crop-overlay', id: 'crop-overlay', hidden: true }, h('div', { class: 'crop-shade', 'aria-hidden': 'true' }, hole), box);
  stage.append(overlay);

  const ratioGroup = h('fieldset', { class: 'segmented crop-ratios' }, h('legend', { class: 'visually-hidden' }, 'Crop ratio'));
  for (const ratio of CROP_RATIOS) {
    ratioGroup.append(
      h(
        'label',
        {},
        h('input', { type: 'radio', name: 'crop-ratio', value: ratio.id, 'aria-label': ratio.terms ? `${ratio.label} ratio` : 'Free ratio' }),
        h('span', {}, ratio.label),
      ),
    );
  }
  const inputs = new Map<CropField, HTMLInputElement>();
  const fields = h('div', { class: 'crop-fields' });
  for (const { field, label, name } of FIELDS) {
    const input = h('input', { type: 'number', id: `crop-${field}`, inputmode: 'numeric', min: '0', step: '1', 'aria-label': name });
    inputs.set(field, input);
    fields.append(h('label', { class: 'crop-field' }, h('span', { 'aria-hidden': 'true' }, label), input));
  }
  const reset = h('button', { type: 'button', id: 'crop-reset' }, 'Reset');
  const cancel = h('button', { type: 'button', id: 'crop-cancel', 'aria-keyshortcuts': 'Escape' }, 'Cancel');
  const apply = h('button', { type: 'button', id: 'crop-apply', class: 'primary', 'aria-keyshortcuts': 'Enter' }, 'Apply');
  const status = h('p', { class: 'visually-hidden', id: 'crop-status', 'aria-live': 'polite' });
  const help = h('p', { class: 'visually-hidden', id: 'crop-help' }, 'Arrow keys move the crop, with Shift by 10 pixels. Enter applies it, Escape cancels.');
  const bar = h(
    'div',
    { class: 'crop-bar', id: 'crop-bar', role: 'group', 'aria-label': 'Crop', hidden: true },
    ratioGroup,
    fields,
    h('div', { class: 'crop-actions' }, reset, cancel, apply),
    status,
    help,
  );
  stage.after(bar);
  return { button, hole, size, box, overlay, ratioGroup, inputs, reset, cancel, apply, status, bar };
}

/** Wires the Crop button, and adds the overlay to the stage and the crop bar below it. */
export function setupCropTool(editor: Editor): void {
  new CropTool(editor);
}

class CropTool {
  private readonly editor: Editor;
  private readonly stage = byId('stage', HTMLDivElement);
  private readonly canvas = byId('preview', HTMLCanvasElement);
  private readonly dom: ReturnType<typeof buildCropDom>;
  private active = false;
  private source: Source | undefined;
  /** The stored crop when the tool opened (or last synced), to tell an undo from the tool's own draft. */
  private baseline: Rect | null = null;
  private draft: Rect = { x: 0, y: 0, width: 1, height: 1 };
  private ratio: CropRatio = CROP_RATIOS[0]!;
  private drag: Drag | undefined;
  private focusWhenShown = false;

  constructor(editor: Editor) {
    this.editor = editor;
    this.dom = buildCropDom(this.stage);
    const { button, apply, cancel, reset, ratioGroup, inputs, overlay } = this.dom;
    editor.onTool((tool) => (tool === TOOL ? this.begin() : this.end(true)));
    editor.onChange(() => this.changed());
    // Every drawing of the preview sets data-rendered, so the overlay follows resizes, zoom and setting changes.
    new MutationObserver(() => this.place()).observe(this.canvas, { attributes: true, attributeFilter: ['data-rendered'] });
    // Registered after the editor's rows; while cropping, those find no selection and stand aside.
    editor.commands.register(...this.commands());
    button.addEventListener('click', () => editor.commands.run('crop.toggle'));
    apply.addEventListener('click', () => editor.commands.run('crop.apply'));
    cancel.addEventListener('click', () => editor.commands.run('crop.cancel'));
    reset.addEventListener('click', () => editor.commands.run('crop.reset'));
    ratioGroup.addEventListener('change', (event) => this.pickRatio((event.target as HTMLInputElement).value));
    for (const input of inputs.values()) input.addEventListener('change', () => this.commitField(input));
    overlay.addEventListener('pointerdown', (event) => this.pointerDown(event));
    overlay.addEventListener('pointermove', (event) => this.pointerMove(event));
    overlay.addEventListener('pointerup', (event) => this.stopDrag(event));
    overlay.addEventListener('pointercancel', (event) => this.stopDrag(event));
    this.showButton();
  }

  private commands(): Command[] {
    const arrows = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].flatMap((key) => [key, `Shift+${key}`]);
    return [
      {
        id: 'crop.toggle',
        label: 'Crop',
        keys: ['C'],
        enabled: () => this.editor.source !== undefined,
        run: (key) => {
          if (this.active) return this.end(true);
          this.focusWhenShown = key !== undefined;
          this.editor.setTool(TOOL);
        },
      },
      // Buttons and other fields keep their own Enter; the crop's fields apply what was typed.
      { id: 'crop.apply', label: 'Apply the crop', keys: ['Enter'], focus: ['page', 'crop-field'], enabled: () => this.active, run: () => this.applyTyped() },
      {
        id: 'crop.cancel',
        label: 'Cancel the crop',
        keys: ['Escape'],
        focus: ['page', 'control', 'arrows', 'crop-field'],
        enabled: () => this.active,
        run: () => this.end(false),
      },
      { id: 'crop.reset', label: 'Reset the crop', enabled: () => this.active, run: () => this.resetCrop() },
      {
        id: 'crop.nudge',
        label: 'Move the crop while it has the focus (with Shift 10 px)',
        keys: arrows,
        keysLabel: '← ↑ → ↓',
        focus: ['page'],
        enabled: () => this.active && document.activeElement === this.dom.box,
        run: (key) => {
          const step = key && arrowStep(key.key, key.shiftKey);
          if (step && this.source) this.setDraft(moveCrop(this.draft, step[0], step[1], this.source));
        },
      },
    ];
  }

  private setRatioRadio(): void {
    for (const input of this.dom.ratioGroup.querySelectorAll<HTMLInputElement>('input')) input.checked = input.value === this.ratio.id;
  }

  /** Puts the overlay over the content and the crop box over the draft; hidden while the preview still shows the old crop. */
  private place(): void {
    const { overlay, hole, box } = this.dom;
    const view = this.editor.currentView();
    const source = this.source;
    if (!this.active || !view || !source || !sameRect(view.crop, { x: 0, y: 0, width: source.width, height: source.height })) {
      overlay.hidden = true;
      return;
    }
    overlay.hidden = false;
    // The canvas fills the stage, so its coordinates are the stage's.
    overlay.style.left = `${this.canvas.offsetLeft + view.box.x}px`;
    overlay.style.top = `${this.canvas.offsetTop + view.box.y}px`;
    overlay.style.width = `${view.box.width}px`;
    overlay.style.height = `${view.box.height}px`;
    for (const element of [hole, box]) {
      element.style.left = `${this.draft.x * view.scale}px`;
      element.style.top = `${this.draft.y * view.scale}px`;
      element.style.width = `${this.draft.width * view.scale}px`;
      element.style.height = `${this.draft.height * view.scale}px`;
    }
    if (this.focusWhenShown) {
      this.focusWhenShown = false;
      box.focus({ preventScroll: true });
    }
  }

  /** The words and numbers for the draft. */
  private describe(): void {
    const { size, box, status, inputs } = this.dom;
    const draft = this.draft;
    const text = `${draft.width} × ${draft.height}`;
    size.textContent = text;
    box.setAttribute('aria-label', `Crop area, ${draft.width} × ${draft.height} pixels at ${draft.x}, ${draft.y}`);
    status.textContent = `Crop ${text} at ${draft.x}, ${draft.y}`;
    for (const [field, input] of inputs) input.value = String(draft[field]);
    if (this.source) {
      const whole = wholeOf(this.source);
      inputs.get('x')!.max = String(whole.width - draft.width);
      inputs.get('y')!.max = String(whole.height - draft.height);
      inputs.get('width')!.max = String(whole.width);
      inputs.get('height')!.max = String(whole.height);
    }
  }

  private setDraft(rect: Rect): void {
    this.draft = rect;
    this.describe();
    this.place();
  }

  private showButton(): void {
    this.dom.button.disabled = !this.editor.source;
    this.dom.button.setAttribute('aria-pressed', String(this.active));
  }

  private begin(): void {
    if (this.active) return;
    const source = this.editor.source;
    this.source = source;
    if (!source) {
      this.editor.setTool('select');
      return;
    }
    this.active = true;
    this.baseline = this.editor.edits.crop;
    this.ratio = CROP_RATIOS[0]!;
    this.setRatioRadio();
    this.draft = clampCrop(this.baseline ?? wholeOf(source), source);
    this.editor.showWholeSource = true;
    this.dom.bar.hidden = false;
    this.showButton();
    this.describe();
    this.place();
    this.editor.redraw();
  }

  /** Leaves crop mode, storing the draft when `commit`. */
  private end(commit: boolean): void {
    if (!this.active) return;
    const { bar, overlay, button } = this.dom;
    const source = this.source;
    this.active = false;
    this.drag = undefined;
    const hadFocus = bar.contains(document.activeElement) || overlay.contains(document.activeElement);
    this.editor.showWholeSource = false;
    overlay.hidden = true;
    bar.hidden = true;
    this.stage.classList.remove('crop-dragging');
    this.showButton();
    const crop = source ? cropToStore(this.draft, source) : null;
    if (commit && source && source === this.editor.source && !sameRect(crop, this.editor.edits.crop)) this.editor.edit({ crop });
    else this.editor.redraw();
    this.source = undefined;
    if (this.editor.tool === TOOL) this.editor.setTool('select');
    // Focus would otherwise fall to the page with the hidden controls.
    if (hadFocus) button.focus({ preventScroll: true });
  }

  /** Enter: a crop field's typed value first, then apply. */
  private applyTyped(): void {
    const focused = document.activeElement;
    if (focused instanceof HTMLInputElement && this.dom.bar.contains(focused) && focused.type === 'number') this.commitField(focused);
    this.end(true);
  }

  /** Removes the stored crop at once (undoable) and starts again from the whole source. */
  private resetCrop(): void {
    if (!this.source) return;
    this.ratio = CROP_RATIOS[0]!;
    this.setRatioRadio();
    this.baseline = null;
    if (this.editor.edits.crop !== null) this.editor.edit({ crop: null });
    this.setDraft(wholeOf(this.source));
  }

  private commitField(input: HTMLInputElement): void {
    const field = FIELDS.find((entry) => this.dom.inputs.get(entry.field) === input)?.field;
    if (!field || !this.source) return;
    this.setDraft(setCropField(this.draft, field, input.valueAsNumber, this.source, this.ratio.terms));
  }

  private pickRatio(id: string): void {
    const picked = CROP_RATIOS.find((entry) => entry.id === id);
    if (!picked || !this.source) return;
    this.ratio = picked;
    if (picked.terms) this.setDraft(fitRatio(this.draft, picked.terms, this.source));
  }

  private changed(): void {
    const source = this.source;
    if (this.active && this.editor.source !== source) {
      this.end(false);
    } else if (this.active && source && !sameRect(this.editor.edits.crop, this.baseline)) {
      // An undo or redo while cropping: show what is stored now.
      this.baseline = this.editor.edits.crop;
      this.setDraft(clampCrop(this.baseline ?? wholeOf(source), source));
    }
    this.showButton();
  }

  private pointerDown(event: PointerEvent): void {
    if (!this.active || !this.source || event.button !== 0) return;
    const target = event.target as HTMLElement;
    const handle = target.closest<HTMLElement>('.crop-handle')?.dataset.handle as Handle | undefined;
    const kind = handle ?? (this.dom.box.contains(target) ? 'move' : 'new');
    let start = this.draft;
    if (kind === 'new') {
      const point = this.editor.toSource(event.clientX, event.clientY);
      if (!point) return;
      start = { x: Math.round(point.x), y: Math.round(point.y), width: 0, height: 0 };
    }
    event.preventDefault();
    this.dom.overlay.setPointerCapture(event.pointerId);
    this.drag = { kind, pointerId: event.pointerId, clientX: event.clientX, clientY: event.clientY, start, moved: false };
    this.stage.classList.add('crop-dragging');
    this.dom.box.focus({ preventScroll: true });
  }

  private pointerMove(event: PointerEvent): void {
    const view = this.editor.currentView();
    const { drag, source } = this;
    if (!drag || event.pointerId !== drag.pointerId || !source || !view) return;
    const cssX = event.clientX - drag.clientX;
    const cssY = event.clientY - drag.clientY;
    if (!drag.moved && Math.hypot(cssX, cssY) < CLICK_SLOP) return;
    drag.moved = true;
    const dx = cssX / view.scale;
    const dy = cssY / view.scale;
    if (drag.kind === 'move') {
      this.setDraft(moveCrop(drag.start, dx, dy, source));
    } else {
      // A new crop grows from where the press began, towards the pointer.
      const handle = drag.kind === 'new' ? (`${dy < 0 ? 'n' : 's'}${dx < 0 ? 'w' : 'e'}` as Handle) : drag.kind;
      this.setDraft(resizeCrop(drag.start, handle, dx, dy, source, this.ratio.terms));
    }
  }

  private stopDrag(event: PointerEvent): void {
    if (!this.drag || event.pointerId !== this.drag.pointerId) return;
    this.drag = undefined;
    this.stage.classList.remove('crop-dragging');
  }
}
