/** The annotation tools' geometry, run in Node: hit-testing, handles, resizing, moving, nudging, step numbers. */
import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  handleAt,
  handlesOf,
  hitTest,
  moved,
  nextStepNumber,
  nudgeOf,
  renumberSteps,
  resized,
  snapAngle,
  topmostAt,
} from '#editor/src/model/annotation-geometry.ts';
import type { Measure } from '#editor/src/model/annotation-geometry.ts';
import { pressGesture, showsHandles } from '#editor/src/model/editor-model.ts';
import type { Annotation, ShapeAnnotation, StepAnnotation, TextAnnotation } from '#editor/src/model/edits.ts';

/** Every character half the font size wide. */
const measure: Measure = (text, font) => text.length * (Number(/(\d+(?:\.\d+)?)px/.exec(font)![1]) / 2);

const shape = (kind: ShapeAnnotation['kind'], x1: number, y1: number, x2: number, y2: number, id: string = kind): ShapeAnnotation => ({
  id,
  kind,
  x1,
  y1,
  x2,
  y2,
  color: '#ff3b30',
  width: 4,
});
const text: TextAnnotation = { id: 'text', kind: 'text', x: 100, y: 50, text: 'Hello\nworld!', color: '#111111', size: 20, weight: 700 };
const step = (id: string, n: number): StepAnnotation => ({ id, kind: 'step', x: 40, y: 40, n, color: '#007aff', size: 32 });

describe('annotation hit-testing', () => {
  it.each([
    ['an arrow near its line', shape('arrow', 0, 0, 100, 100), { x: 52, y: 48 }, true],
    ['an arrow away from its line', shape('arrow', 0, 0, 100, 100), { x: 80, y: 20 }, false],
    ['a rectangle on its stroke', shape('rect', 10, 10, 110, 60), { x: 11, y: 35 }, true],
    ['a rectangle inside, away from the stroke', shape('rect', 10, 10, 110, 60), { x: 60, y: 35 }, false],
    ['an ellipse on its curve', shape('ellipse', 0, 0, 200, 100), { x: 100, y: 1 }, true],
    ['an ellipse at its centre', shape('ellipse', 0, 0, 200, 100), { x: 100, y: 50 }, false],
    ['a blur anywhere inside', shape('blur', 10, 10, 110, 60), { x: 60, y: 35 }, true],
    ['a highlight anywhere inside', shape('highlight', 10, 10, 110, 60), { x: 60, y: 35 }, true],
    ['a text inside its lines', text, { x: 150, y: 70 }, true],
    ['a text below its lines', text, { x: 110, y: 110 }, false],
    ['a step inside its circle', step('s', 1), { x: 50, y: 50 }, true],
  ] as const)('picks %s: %s', (_case, annotation, point, expected) => {
    // Act + Assess
    expect(hitTest(annotation, point, 3, measure)).toBe(expected);
  });

  it('picks the annotation drawn last when two overlap', () => {
    // Prepare
    const under = shape('blur', 0, 0, 100, 100, 'under');
    const over = shape('pixelate', 50, 50, 150, 150, 'over');

    // Act + Assess
    expect(topmostAt([under, over], { x: 75, y: 75 }, 2, measure)?.id).toBe('over');
    expect(topmostAt([under, over], { x: 25, y: 25 }, 2, measure)?.id).toBe('under');
    expect(topmostAt([under, over], { x: 300, y: 300 }, 2, measure)).toBeUndefined();
  });

  it('measures a text from its longest line and its line count', () => {
    // Act + Assess: "world!" is 6 characters of 10 px; two lines of 1.25 × 20 px
    expect(boundsOf(text, measure)).toEqual({ x: 100, y: 50, width: 60, height: 50 });
  });
});

describe('annotation handles', () => {
  it('gives lines their two ends, boxes eight handles, text and steps one corner', () => {
    // Act + Assess
    expect(handlesOf(shape('arrow', 1, 2, 3, 4), measure).map((handle) => handle.handle)).toEqual(['start', 'end']);
    expect(handlesOf(shape('rect', 0, 0, 10, 10), measure)).toHaveLength(8);
    expect(handlesOf(text, measure)).toEqual([{ handle: 'se', x: 160, y: 100 }]);
    expect(handlesOf(step('s', 1), measure)).toEqual([{ handle: 'se', x: 56, y: 56 }]);
  });

  it('finds the handle under the pointer within the tolerance', () => {
    // Prepare
    const box = shape('rect', 0, 0, 100, 50);

    // Act + Assess
    expect(handleAt(box, { x: 103, y: 48 }, 5, measure)).toBe('se');
    expect(handleAt(box, { x: 50, y: -2 }, 5, measure)).toBe('n');
    expect(handleAt(box, { x: 50, y: 25 }, 5, measure)).toBeUndefined();
  });
});

describe('annotation resizing', () => {
  it('moves only the dragged edges of a box', () => {
    // Act
    const east = resized(shape('rect', 10, 10, 110, 60), 'e', { x: 150, y: 999 }, measure);
    const northWest = resized(shape('rect', 10, 10, 110, 60), 'nw', { x: 0, y: 5 }, measure);

    // Assess
    expect(east).toMatchObject({ x1: 10, y1: 10, x2: 150, y2: 60 });
    expect(northWest).toMatchObject({ x1: 0, y1: 5, x2: 110, y2: 60 });
  });

  it('flips a box whose handle crosses the opposite edge, keeping corners in order', () => {
    // Act
    const flipped = resized(shape('blur', 10, 10, 110, 60), 'se', { x: 0, y: 0 }, measure);

    // Assess
    expect(flipped).toMatchObject({ x1: 0, y1: 0, x2: 10, y2: 10 });
  });

  it('keeps a box square from the opposite corner with Shift', () => {
    // Act
    const square = resized(shape('rect', 10, 10, 110, 60), 'se', { x: 60, y: 130 }, measure, true);

    // Assess
    expect(square).toMatchObject({ x1: 10, y1: 10, x2: 130, y2: 130 });
  });

  it('moves one end of a line, snapped to 45° with Shift', () => {
    // Act
    const free = resized(shape('line', 0, 0, 100, 0), 'end', { x: 50, y: 70 }, measure);
    const snapped = resized(shape('arrow', 0, 0, 100, 0), 'end', { x: 100, y: 90 }, measure, true) as ShapeAnnotation;

    // Assess
    expect(free).toMatchObject({ x1: 0, y1: 0, x2: 50, y2: 70 });
    expect(snapped.x2).toBeGreaterThan(90);
    expect(snapped.x2).toBeCloseTo(snapped.y2, 2);
    expect(snapAngle({ x: 0, y: 0 }, { x: 100, y: 3 })).toEqual({ x: 100.045, y: 0 });
  });

  it('scales a text by its height and a step by its radius, within bounds', () => {
    // Act: the text is 50 high; dragging its corner to 100 doubles it
    const bigger = resized(text, 'se', { x: 999, y: 150 }, measure);
    const tiny = resized(text, 'se', { x: 0, y: 50 }, measure);
    const wider = resized(step('s', 1), 'se', { x: 70, y: 60 }, measure);

    // Assess
    expect(bigger).toMatchObject({ size: 40, x: 100, y: 50 });
    expect(tiny).toMatchObject({ size: 8 });
    expect(wider).toMatchObject({ size: 60, x: 40, y: 40 });
  });
});

describe('annotation moving and nudging', () => {
  it('moves both corners of a shape and the anchor of a text or step', () => {
    // Act + Assess
    expect(moved(shape('ellipse', 0, 0, 10, 20), 5, -5)).toMatchObject({ x1: 5, y1: -5, x2: 15, y2: 15 });
    expect(moved(text, -10, 10)).toMatchObject({ x: 90, y: 60, text: text.text });
  });

  it.each([
    ['ArrowLeft', false, { x: -1, y: 0 }],
    ['ArrowRight', true, { x: 10, y: 0 }],
    ['ArrowUp', true, { x: 0, y: -10 }],
    ['ArrowDown', false, { x: 0, y: 1 }],
    ['a', false, undefined],
  ] as const)('nudges by %s (Shift %s)', (key, shift, offset) => {
    // Act + Assess
    expect(nudgeOf(key, shift)).toEqual(offset);
  });
});

describe('step markers', () => {
  it('number themselves 1, 2, 3 in drawing order and close the gap when one is removed', () => {
    // Prepare
    const annotations: Annotation[] = [step('a', 1), shape('arrow', 0, 0, 1, 1), step('b', 2), step('c', 3)];

    // Act
    const next = nextStepNumber(annotations);
    const renumbered = renumberSteps(annotations.filter((annotation) => annotation.id !== 'b'));

    // Assess
    expect(next).toBe(4);
    expect(renumbered.map((annotation) => (annotation.kind === 'step' ? `${annotation.id}${annotation.n}` : annotation.kind))).toEqual(['a1', 'arrow', 'c2']);
  });
});

describe('a press on the preview', () => {
  it.each([
    ['select', { onHandle: true, onPicture: true }, 'resize'],
    ['select', { onHandle: false, onPicture: true }, 'pick'],
    ['select', { onHandle: false, onPicture: false }, 'pick'],
    ['pixelate', { onHandle: true, onPicture: true }, 'draw'],
    ['rect', { onHandle: true, onPicture: true }, 'draw'],
    ['text', { onHandle: true, onPicture: true }, 'draw'],
    ['pen', { onHandle: false, onPicture: false }, 'none'],
  ] as const)('with the %s tool at %o starts %s', (tool, at, press) => {
    // Act + Assess
    expect(pressGesture(tool, at)).toBe(press);
  });

  it('shows the handles it would resize by only under the select tool', () => {
    expect(['select', 'blur', 'arrow', 'crop'].map(showsHandles)).toEqual([true, false, false, false]);
  });
});
