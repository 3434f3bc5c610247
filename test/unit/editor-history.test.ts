/** Undo and redo of the editor's state, and the content size a crop gives, run in Node. */
import { describe, expect, it } from 'vitest';
import { contentSize, NO_EDITS } from '#editor/src/model/edits.ts';
import { History } from '#editor/src/model/history.ts';

describe('editor history', () => {
  it('undoes and redoes in order, and a new change drops what could be redone', () => {
    // Prepare
    const history = new History<string>(10);
    history.record('a', undefined, 0);
    history.record('b', undefined, 10_000);

    // Act
    const first = history.undo('c');
    const second = history.undo('b');
    const again = history.redo('a');
    history.record('b', undefined, 20_000);

    // Assess
    expect([first, second, again]).toEqual(['b', 'a', 'b']);
    expect(history.redo('x')).toBeUndefined();
    expect(history.undoSteps).toBe(2);
  });

  it('keeps a run of changes under one merge key as one step, until a pause or another key', () => {
    // Prepare
    const history = new History<number>(10);

    // Act
    history.record(0, 'padding', 0);
    history.record(1, 'padding', 300);
    history.record(2, 'padding', 600);
    history.record(3, 'radius', 700);
    history.record(4, 'radius', 5_000);

    // Assess
    expect(history.undoSteps).toBe(3);
    expect(history.undo(5)).toBe(4);
    expect(history.undo(4)).toBe(3);
    expect(history.undo(3)).toBe(0);
  });

  it('forgets the oldest step beyond its limit', () => {
    // Prepare
    const history = new History<number>(3);

    // Act
    for (let step = 0; step < 5; step += 1) history.record(step, undefined, step * 10_000);

    // Assess
    expect(history.undoSteps).toBe(3);
    expect([history.undo(5), history.undo(4), history.undo(3), history.undo(2)]).toEqual([4, 3, 2, undefined]);
  });
});

describe('editor edits', () => {
  it("lays out the crop's size, or the whole source without one", () => {
    // Act
    const whole = contentSize({ width: 1280, height: 800 }, NO_EDITS);
    const cropped = contentSize({ width: 1280, height: 800 }, { crop: { x: 10, y: 20, width: 300, height: 200 }, annotations: [] });

    // Assess
    expect(whole).toEqual({ width: 1280, height: 800 });
    expect(cropped).toEqual({ width: 300, height: 200 });
  });
});
