/**
 * Zoom and pan on the preview: Ctrl/⌘+wheel and trackpad pinch zoom around the pointer, two
 * fingers pinch and pan, the wheel or a middle-button drag pans, and buttons fit or show 100 %.
 */
import type { Annotator } from './annotate-tool.ts';
import { byId } from '../dom.ts';
import type { Editor } from '../editor.ts';
import { PREVIEW_MARGIN } from '../editor.ts';
import { clampPan, FIT, scaleOf, ZOOM_STEP, zoomAround } from '../model/zoom.ts';
import type { Viewport } from '../model/zoom.ts';

type Zoom = (action: 'in' | 'out' | 'fit' | 'actual') => void;

/** Binds the zoom buttons and gestures; returns what the zoom commands run. */
export function setupZoom(editor: Editor, annotator: Annotator): Zoom {
  const overlay = byId('annotate-overlay', HTMLCanvasElement);
  const toolbar = byId('annotate-toolbar', HTMLDivElement);
  // On the stage, so the gestures work over the crop tool's overlay too.
  const stage = byId('stage', HTMLDivElement);

  /** The composition's size in layout pixels and the preview's in CSS pixels, or undefined before a source. */
  const sizes = () => {
    const view = editor.currentView();
    if (!view) return undefined;
    const box = overlay.getBoundingClientRect();
    return {
      composition: { width: view.composition.width / view.scale, height: view.composition.height / view.scale },
      area: { width: box.width, height: box.height },
      box,
    };
  };

  const zoomTo = (zoom: number, at?: { x: number; y: number }) => {
    const s = sizes();
    if (!s) return;
    const point = at ?? { x: s.area.width / 2, y: s.area.height / 2 };
    editor.setViewport(zoomAround(editor.viewport, zoom, point, s.composition, s.area, PREVIEW_MARGIN));
  };
  const current = () => {
    const s = sizes();
    return s ? scaleOf(editor.viewport, s.composition, s.area, PREVIEW_MARGIN) : 1;
  };
  const panBy = (dx: number, dy: number) => {
    const s = sizes();
    if (!s || editor.viewport.zoom === 'fit') return;
    const moved: Viewport = { ...editor.viewport, panX: editor.viewport.panX + dx, panY: editor.viewport.panY + dy };
    editor.setViewport(clampPan(moved, s.composition, s.area, PREVIEW_MARGIN));
  };

  const zoom: Zoom = (action) => {
    if (action === 'fit') editor.setViewport(FIT);
    else if (action === 'actual') zoomTo(1);
    else zoomTo(current() * (action === 'in' ? ZOOM_STEP : 1 / ZOOM_STEP));
  };

  stage.addEventListener(
    'wheel',
    (event) => {
      if (!editor.currentView()) return;
      const s = sizes()!;
      if (event.ctrlKey || event.metaKey) {
        // Trackpad pinches arrive as wheel events with Ctrl held.
        event.preventDefault();
        const unit = event.deltaMode === 1 ? 16 : 1;
        zoomTo(current() * Math.exp((-event.deltaY * unit) / 300), { x: event.clientX - s.box.x, y: event.clientY - s.box.y });
      } else if (editor.viewport.zoom !== 'fit') {
        event.preventDefault();
        panBy(-event.deltaX, -event.deltaY);
      }
    },
    { passive: false },
  );

  bindPointerPan(stage, overlay, annotator, panBy, zoomTo, current);

  const label = bindZoomButtons(editor, toolbar);
  const fit = byId('zoom-fit', HTMLButtonElement);
  // The level is always a figure; the Fit button, pressed, says the preview fits.
  editor.onRender(() => {
    const view = editor.currentView();
    const text = view ? `${Math.round(current() * 100)} %` : '100 %';
    if (label.textContent !== text) label.textContent = text;
    label.dataset.scale = view ? String(view.scale) : '';
    fit.setAttribute('aria-pressed', String(editor.viewport.zoom === 'fit'));
  });
  return zoom;
}

/** The toolbar's zoom group (in the page, so it takes its place before the first paint) runs the zoom commands. */
function bindZoomButtons(editor: Editor, toolbar: HTMLElement): HTMLElement {
  for (const button of toolbar.querySelectorAll<HTMLButtonElement>('.annotate-zoom button[data-command]')) {
    button.addEventListener('click', () => editor.commands.run(button.dataset.command!));
  }
  return byId('zoom-level', HTMLSpanElement);
}

/** A middle-button drag pans; two fingers pinch and pan (the first finger's drawing is dropped). */
function bindPointerPan(
  stage: HTMLElement,
  area: HTMLElement,
  annotator: Annotator,
  panBy: (dx: number, dy: number) => void,
  zoomTo: (zoom: number, at: { x: number; y: number }) => void,
  current: () => number,
): void {
  const touches = new Map<number, { x: number; y: number }>();
  let middle: { x: number; y: number } | undefined;
  const pair = () => {
    const [a, b] = [...touches.values()];
    return a && b ? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, distance: Math.hypot(a.x - b.x, a.y - b.y) } : undefined;
  };
  stage.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'touch') {
      touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (touches.size === 2 && annotator.canEscape()) annotator.escape();
    } else if (event.button === 1) {
      event.preventDefault();
      middle = { x: event.clientX, y: event.clientY };
      stage.setPointerCapture(event.pointerId);
    }
  });
  stage.addEventListener('pointermove', (event) => {
    if (middle) {
      panBy(event.clientX - middle.x, event.clientY - middle.y);
      middle = { x: event.clientX, y: event.clientY };
      return;
    }
    if (!touches.has(event.pointerId)) return;
    const before = pair();
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const after = pair();
    if (!before || !after || before.distance === 0) return;
    const box = area.getBoundingClientRect();
    // What was between the fingers stays between them: zoomed around where they were, then moved with them.
    zoomTo(current() * (after.distance / before.distance), { x: before.x - box.x, y: before.y - box.y });
    panBy(after.x - before.x, after.y - before.y);
  });
  const release = (event: PointerEvent) => {
    touches.delete(event.pointerId);
    if (event.button === 1 || event.type === 'pointercancel') middle = undefined;
  };
  stage.addEventListener('pointerup', release);
  stage.addEventListener('pointercancel', release);
}
