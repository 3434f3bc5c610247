/** The editor's document transitions, pen arithmetic and zoom arithmetic, in Node. */
import { describe, expect, it } from 'vitest';
import type { Measure } from '#editor/src/model/annotation-geometry.ts';
import {
  addAnnotation,
  adjacentAnnotation,
  clampToPicture,
  duplicateAnnotation,
  removeAnnotation,
  replaceAnnotation,
  restyled,
  styleOf,
} from '#editor/src/model/editor-model.ts';
import { annotationFrom } from '#editor/src/model/edits.ts';
import type { Annotation, Edits, PenAnnotation, ShapeAnnotation, StepAnnotation } from '#editor/src/model/edits.ts';
import { distanceToStroke, penBox, simplify } from '#editor/src/model/pen.ts';
import { clampPan, FIT, place, zoomAround } from '#editor/src/model/zoom.ts';

const measure: Measure = (text) => text.length * 10;
const rect = (id: string, x1 = 10, y1 = 10, x2 = 50, y2 = 40): ShapeAnnotation => ({ id, kind: 'rect', x1, y1, x2, y2, color: '#ff0000', width: 4 });
const step = (id: string, n: number): StepAnnotation => ({ id, kind: 'step', x: 100, y: 100, n, color: '#0000ff', size: 32 });
const edits = (...annotations: Annotation[]): Edits => ({ crop: null, annotations });
const PICTURE = { x: 0, y: 0, width: 200, height: 100 };

describe('document transitions', () => {
  it('adds, replaces and removes annotations without changing the edits they were given', () => {
    // Arrange
    const before = edits(rect('a'));

    // Act
    const added = addAnnotation(before, rect('b'));
    const replaced = replaceAnnotation(added, rect('a', 0, 0, 5, 5));
    const removed = removeAnnotation(replaced, 'b');

    // Assess
    expect(before.annotations.map((a) => a.id)).toEqual(['a']);
    expect(added.annotations.map((a) => a.id)).toEqual(['a', 'b']);
    expect(replaced.annotations[0]).toMatchObject({ x2: 5, y2: 5 });
    expect(removed.annotations).toEqual([rect('a', 0, 0, 5, 5)]);
  });

  it('renumbers the step markers after one is removed, and gives a duplicated marker the next number', () => {
    const three = edits(step('s1', 1), step('s2', 2), step('s3', 3));
    expect(removeAnnotation(three, 's1').annotations.map((a) => (a as StepAnnotation).n)).toEqual([1, 2]);
    const copy = duplicateAnnotation(three, 's1', 'copy', 12).annotations.at(-1) as StepAnnotation;
    expect(copy).toMatchObject({ id: 'copy', n: 4, x: 112, y: 112 });
  });

  it.each<[string, string | undefined, 1 | -1, string]>([
    ['the first when none is selected and going forward', undefined, 1, 'a'],
    ['the last when none is selected and going back', undefined, -1, 'c'],
    ['round the end', 'c', 1, 'a'],
    ['round the start', 'a', -1, 'c'],
  ])('selects %s', (_name, selected, direction, expected) => {
    expect(adjacentAnnotation(edits(rect('a'), rect('b'), rect('c')), selected, direction)).toBe(expected);
  });

  it('restyles only what an annotation has: a redaction keeps no colour, a marker grows with the width', () => {
    const blur: ShapeAnnotation = { ...rect('b'), kind: 'blur' };
    expect(restyled(blur, { color: '#00ff00' })).toBe(blur);
    expect(restyled(step('s', 1), { width: 8 })).toMatchObject({ size: 44 });
    expect(styleOf(rect('r'), { color: '#000000', width: 2, size: 24, weight: 700 })).toEqual({ color: '#ff0000', width: 4, size: 24, weight: 700 });
  });

  it('clamps a shape drawn past the picture to its edge, and drops one entirely outside it', () => {
    expect(clampToPicture(rect('a', 150, 50, 260, 140), PICTURE, measure)).toMatchObject({ x1: 150, y1: 50, x2: 200, y2: 100 });
    expect(clampToPicture(rect('b', -60, 10, -20, 50), PICTURE, measure)).toBeUndefined();
    const pen: PenAnnotation = { id: 'p', kind: 'pen', points: [10, 10, 250, 50], color: '#000000', width: 2 };
    expect(clampToPicture(pen, PICTURE, measure)).toMatchObject({ points: [10, 10, 200, 50] });
  });
});

describe('pen strokes', () => {
  it('thins samples along a straight run to its ends and keeps the turns of a wave', () => {
    // Arrange
    const straight = Array.from({ length: 50 }, (_, i) => ({ x: i, y: 2 * i + (i % 2) * 0.1 }));
    const wave = Array.from({ length: 200 }, (_, i) => ({ x: i, y: 40 * Math.sin(i / 10) }));

    // Act
    const line = simplify(straight, 0.5);
    const curve = simplify(wave, 0.5);

    // Assess
    expect(line).toEqual([straight[0], straight[49]]);
    expect(curve.length).toBeGreaterThan(10);
    expect(curve.length).toBeLessThan(60);
    for (const p of wave)
      expect(
        distanceToStroke(
          curve.flatMap((q) => [q.x, q.y]),
          p,
        ),
      ).toBeLessThanOrEqual(0.5 + 1e-9);
  });

  it('reads a kept stroke back, and drops one whose points are odd in number or not numbers', () => {
    const pen: PenAnnotation = { id: 'p', kind: 'pen', points: [1, 2, 3, 4], color: '#000000', width: 2 };
    expect(annotationFrom(JSON.parse(JSON.stringify(pen)))).toEqual(pen);
    expect(annotationFrom({ ...pen, points: [1, 2, 3] })).toBeUndefined();
    expect(annotationFrom({ ...pen, points: [1, '2'] })).toBeUndefined();
  });

  it('measures its box and the distance from a point to it', () => {
    const points = [0, 0, 10, 0, 10, 20];
    expect(penBox(points)).toEqual({ x: 0, y: 0, width: 10, height: 20 });
    expect(distanceToStroke(points, { x: 5, y: 3 })).toBe(3);
  });
});

describe('zoom and pan', () => {
  const composition = { width: 1000, height: 500 };
  const area = { width: 600, height: 400 };

  it('fits within the margin, or places at the zoom centred and panned', () => {
    expect(place(composition, area, 16, FIT)).toEqual({ x: 16, y: 200 - (500 * 0.568) / 2, scale: 0.568 });
    expect(place(composition, area, 16, { zoom: 1, panX: 10, panY: -5 })).toEqual({ x: -200 + 10, y: -50 - 5, scale: 1 });
  });

  it('keeps the point under the pointer in place when zooming around it', () => {
    // Arrange
    const at = { x: 150, y: 120 };
    const before = place(composition, area, 16, FIT);
    const under = { x: (at.x - before.x) / before.scale, y: (at.y - before.y) / before.scale };

    // Act
    const zoomed = zoomAround(FIT, 2, at, composition, area, 16);
    const after = place(composition, area, 16, zoomed);

    // Assess
    expect(zoomed.zoom).toBe(2);
    expect(after.x + under.x * 2).toBeCloseTo(at.x, 9);
    expect(after.y + under.y * 2).toBeCloseTo(at.y, 9);
  });

  it('stops a pan before the composition leaves the view', () => {
    const far = clampPan({ zoom: 1, panX: 10_000, panY: -10_000 }, composition, area, 16);
    expect(far).toEqual({ zoom: 1, panX: (1000 + 600) / 2 - 32, panY: -((500 + 400) / 2 - 32) });
  });
});
