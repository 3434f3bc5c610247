/**
 * The crop tool: a rectangle over the whole source with handles, ratio presets and number fields.
 * Nothing changes until Apply, which records one undo step; the source itself is never cut.
 */
import { arrowStep } from './editor-commands.ts';
import { byId, h } from './dom.ts';
import type { Editor } from './editor.ts';
import type { Rect } from './layout.ts';
import type { Source } from './sources.ts';
import { CROP_RATIOS, HANDLES, clampCrop, cropToStore, fitRatio, moveCrop, resizeCrop, sameRect, setCropField, wholeOf } from './crop-math.ts';
import type { CropField, CropRatio, Handle } from './crop-math.ts';

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

/** Adds the Crop button to the toolbar, the overlay to the stage and the crop bar below it. */
export function setupCropTool(editor: Editor): void {
  const stage = byId('stage', HTMLDivElement);
  const canvas = byId('preview', HTMLCanvasElement);
  const toolbar = byId('annotate-toolbar', HTMLDivElement);

  const button = h('button', { type: 'button', id: 'crop-button', 'aria-pressed': 'false', 'aria-keyshortcuts': 'C', title: 'Crop (C)', disabled: true }, 'Crop');
  toolbar.append(button);

  const hole = h('div', { class: 'crop-hole' });
  const size = h('span', { class: 'crop-size', 'aria-hidden': 'true' });
  const box = h(
    'div',
    {
      class: 'crop-box',
      id: 'crop-box',
      tabindex: '0',
      role: 'group',
      'aria-roledescription': 'crop area',
      'aria-describedby': 'crop-help',
    },
    h('span', { class: 'crop-grid', 'aria-hidden': 'true' }),
    size,
    ...HANDLES.map((handle) => h('span', { class: 'crop-handle', 'data-handle': handle, 'aria-hidden': 'true' })),
  );
  const overlay = h('div', { class: 'crop-overlay', id: 'crop-overlay', hidden: true }, h('div', { class: 'crop-shade', 'aria-hidden': 'true' }, hole), box);
  stage.append(overlay);

  const ratioGroup = h('fieldset', { class: 'segmented crop-ratios' }, h('legend', { class: 'visually-hidden' }, 'Crop ratio'));
  for (const ratio of CROP_RATIOS) {
    ratioGroup.append(h('label', {}, h('input', { type: 'radio', name: 'crop-ratio', value: ratio.id, 'aria-label': ratio.terms ? `${ratio.label} ratio` : 'Free ratio' }), h('span', {}, ratio.label)));
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
  const bar = h('div', { class: 'crop-bar', id: 'crop-bar', role: 'group', 'aria-label': 'Crop', hidden: true }, ratioGroup, fields, h('div', { class: 'crop-actions' }, reset, cancel, apply), status, help);
  stage.after(bar);

  let active = false;
  let source: Source | undefined;
  /** The stored crop when the tool opened (or last synced), to tell an undo from the tool's own draft. */
  let baseline: Rect | null = null;
  let draft: Rect = { x: 0, y: 0, width: 1, height: 1 };
  let ratio: CropRatio = CROP_RATIOS[0]!;
  let drag: Drag | undefined;
  let focusWhenShown = false;

  const setRatioRadio = () => {
    for (const input of ratioGroup.querySelectorAll<HTMLInputElement>('input')) input.checked = input.value === ratio.id;
  };

  /** Puts the overlay over the content and the crop box over the draft; hidden while the preview still shows the old crop. */
  const place = () => {
    const view = editor.currentView();
    const whole = source && { x: 0, y: 0, width: source.width, height: source.height };
    if (!active || !view || !whole || !sameRect(view.crop, whole)) {
      overlay.hidden = true;
      return;
    }
    overlay.hidden = false;
    // The canvas fills the stage, so its coordinates are the stage's.
    overlay.style.left = `${canvas.offsetLeft + view.box.x}px`;
    overlay.style.top = `${canvas.offsetTop + view.box.y}px`;
    overlay.style.width = `${view.box.width}px`;
    overlay.style.height = `${view.box.height}px`;
    for (const element of [hole, box]) {
      element.style.left = `${draft.x * view.scale}px`;
      element.style.top = `${draft.y * view.scale}px`;
      element.style.width = `${draft.width * view.scale}px`;
      element.style.height = `${draft.height * view.scale}px`;
    }
    if (focusWhenShown) {
      focusWhenShown = false;
      box.focus({ preventScroll: true });
    }
  };

  /** The words and numbers for the draft. */
  const describe = () => {
    const text = `${draft.width} × ${draft.height}`;
    size.textContent = text;
    box.setAttribute('aria-label', `Crop area, ${draft.width} × ${draft.height} pixels at ${draft.x}, ${draft.y}`);
    status.textContent = `Crop ${text} at ${draft.x}, ${draft.y}`;
    for (const [field, input] of inputs) input.value = String(draft[field]);
    if (source) {
      const whole = wholeOf(source);
      inputs.get('x')!.max = String(whole.width - draft.width);
      inputs.get('y')!.max = String(whole.height - draft.height);
      inputs.get('width')!.max = String(whole.width);
      inputs.get('height')!.max = String(whole.height);
    }
  };

  const setDraft = (rect: Rect) => {
    draft = rect;
    describe();
    place();
  };

  const showButton = () => {
    button.disabled = !editor.source;
    button.setAttribute('aria-pressed', String(active));
  };

  const begin = () => {
    if (active) return;
    source = editor.source;
    if (!source) {
      editor.setTool('select');
      return;
    }
    active = true;
    baseline = editor.edits.crop;
    ratio = CROP_RATIOS[0]!;
    setRatioRadio();
    draft = clampCrop(baseline ?? wholeOf(source), source);
    editor.showWholeSource = true;
    bar.hidden = false;
    showButton();
    describe();
    place();
    editor.redraw();
  };

  /** Leaves crop mode, storing the draft when `commit`. */
  const end = (commit: boolean) => {
    if (!active) return;
    active = false;
    drag = undefined;
    const hadFocus = bar.contains(document.activeElement) || overlay.contains(document.activeElement);
    editor.showWholeSource = false;
    overlay.hidden = true;
    bar.hidden = true;
    stage.classList.remove('crop-dragging');
    showButton();
    const crop = source ? cropToStore(draft, source) : null;
    if (commit && source && source === editor.source && !sameRect(crop, editor.edits.crop)) editor.edit({ crop });
    else editor.redraw();
    source = undefined;
    if (editor.tool === TOOL) editor.setTool('select');
    // Focus would otherwise fall to the page with the hidden controls.
    if (hadFocus) button.focus({ preventScroll: true });
  };

  /** Removes the stored crop at once (undoable) and starts again from the whole source. */
  const resetCrop = () => {
    if (!source) return;
    ratio = CROP_RATIOS[0]!;
    setRatioRadio();
    baseline = null;
    if (editor.edits.crop !== null) editor.edit({ crop: null });
    setDraft(wholeOf(source));
  };

  const commitField = (input: HTMLInputElement) => {
    const field = FIELDS.find((entry) => inputs.get(entry.field) === input)?.field;
    if (!field || !source) return;
    setDraft(setCropField(draft, field, input.valueAsNumber, source, ratio.terms));
  };

  editor.onTool((tool) => {
    if (tool === TOOL) begin();
    else end(true);
  });

  editor.onChange(() => {
    if (active && editor.source !== source) {
      end(false);
    } else if (active && source && !sameRect(editor.edits.crop, baseline)) {
      // An undo or redo while cropping: show what is stored now.
      baseline = editor.edits.crop;
      setDraft(clampCrop(baseline ?? wholeOf(source), source));
    }
    showButton();
  });

  // Every drawing of the preview sets data-rendered, so the overlay follows resizes and setting changes.
  new MutationObserver(place).observe(canvas, { attributes: true, attributeFilter: ['data-rendered'] });

  const ARROW_KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].flatMap((key) => [key, `Shift+${key}`]);
  // Registered after the editor's rows; while cropping, those find no selection and stand aside.
  editor.commands.register(
    {
      id: 'crop.toggle',
      label: 'Crop',
      keys: ['C'],
      enabled: () => editor.source !== undefined,
      run: (key) => {
        if (active) return end(true);
        focusWhenShown = key !== undefined;
        editor.setTool(TOOL);
      },
    },
    {
      id: 'crop.apply',
      label: 'Apply the crop',
      keys: ['Enter'],
      // Buttons and other fields keep their own Enter; the crop's fields apply what was typed.
      focus: ['page', 'crop-field'],
      enabled: () => active,
      run: () => {
        const focused = document.activeElement;
        if (focused instanceof HTMLInputElement && bar.contains(focused) && focused.type === 'number') commitField(focused);
        end(true);
      },
    },
    { id: 'crop.cancel', label: 'Cancel the crop', keys: ['Escape'], focus: ['page', 'control', 'arrows', 'crop-field'], enabled: () => active, run: () => end(false) },
    { id: 'crop.reset', label: 'Reset the crop', enabled: () => active, run: resetCrop },
    {
      id: 'crop.nudge',
      label: 'Move the crop',
      keys: ARROW_KEYS,
      focus: ['page'],
      enabled: () => active && document.activeElement === box,
      run: (key) => {
        const step = key && arrowStep(key.key, key.shiftKey);
        if (step && source) setDraft(moveCrop(draft, step[0], step[1], source));
      },
    },
  );
  button.addEventListener('click', () => editor.commands.run('crop.toggle'));
  apply.addEventListener('click', () => editor.commands.run('crop.apply'));
  cancel.addEventListener('click', () => editor.commands.run('crop.cancel'));
  reset.addEventListener('click', () => editor.commands.run('crop.reset'));

  ratioGroup.addEventListener('change', (event) => {
    const picked = CROP_RATIOS.find((entry) => entry.id === (event.target as HTMLInputElement).value);
    if (!picked || !source) return;
    ratio = picked;
    if (picked.terms) setDraft(fitRatio(draft, picked.terms, source));
  });

  for (const input of inputs.values()) input.addEventListener('change', () => commitField(input));

  overlay.addEventListener('pointerdown', (event) => {
    if (!active || !source || event.button !== 0) return;
    const target = event.target as HTMLElement;
    const handle = target.closest<HTMLElement>('.crop-handle')?.dataset.handle as Handle | undefined;
    const kind = handle ?? (box.contains(target) ? 'move' : 'new');
    let start = draft;
    if (kind === 'new') {
      const point = editor.toSource(event.clientX, event.clientY);
      if (!point) return;
      start = { x: Math.round(point.x), y: Math.round(point.y), width: 0, height: 0 };
    }
    event.preventDefault();
    overlay.setPointerCapture(event.pointerId);
    drag = { kind, pointerId: event.pointerId, clientX: event.clientX, clientY: event.clientY, start, moved: false };
    stage.classList.add('crop-dragging');
    box.focus({ preventScroll: true });
  });

  overlay.addEventListener('pointermove', (event) => {
    const view = editor.currentView();
    if (!drag || event.pointerId !== drag.pointerId || !source || !view) return;
    const cssX = event.clientX - drag.clientX;
    const cssY = event.clientY - drag.clientY;
    if (!drag.moved && Math.hypot(cssX, cssY) < CLICK_SLOP) return;
    drag.moved = true;
    const dx = cssX / view.scale;
    const dy = cssY / view.scale;
    if (drag.kind === 'move') {
      setDraft(moveCrop(drag.start, dx, dy, source));
    } else if (drag.kind === 'new') {
      // A new crop grows from where the press began, towards the pointer.
      const handle = `${dy < 0 ? 'n' : 's'}${dx < 0 ? 'w' : 'e'}` as Handle;
      setDraft(resizeCrop(drag.start, handle, dx, dy, source, ratio.terms));
    } else {
      setDraft(resizeCrop(drag.start, drag.kind, dx, dy, source, ratio.terms));
    }
  });

  const stopDrag = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    drag = undefined;
    stage.classList.remove('crop-dragging');
  };
  overlay.addEventListener('pointerup', stopDrag);
  overlay.addEventListener('pointercancel', stopDrag);

  showButton();
}
