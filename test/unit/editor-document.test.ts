/** The editor's document model in Node: settings, edits, undo history and a gesture's draft. */
import { describe, expect, it } from 'vitest';
import { DocumentModel } from '#editor/src/model/document-model.ts';
import type { Annotation } from '#editor/src/model/edits.ts';
import { DEFAULT_SETTINGS } from '#editor/src/model/settings.ts';

const box = (id: string, x2 = 50): Annotation => ({ id, kind: 'rect', x1: 10, y1: 10, x2, y2: 40, color: '#ff0000', width: 4 });

function model(clock = { now: 0 }) {
  return { doc: new DocumentModel(DEFAULT_SETTINGS, 100, () => clock.now), clock };
}

describe('the document model', () => {
  it('records each change as one undo step and goes back and forth', () => {
    // Arrange
    const { doc } = model();

    // Act
    doc.update({ padding: 10 });
    doc.edit({ annotations: [box('a')] });
    const undone = doc.undo();
    const redone = doc.redo();

    // Assess
    expect(undone).toEqual({ settings: { ...DEFAULT_SETTINGS, padding: 10 }, edits: { crop: null, annotations: [] } });
    expect(redone?.edits.annotations).toEqual([box('a')]);
    expect(doc.settings.padding).toBe(10);
    expect({ undo: doc.history.undoSteps, redo: doc.history.redoSteps }).toEqual({ undo: 2, redo: 0 });
  });

  it('merges a run of changes under one key into one step, until the run pauses', () => {
    const { doc, clock } = model();
    for (const padding of [10, 20, 30]) {
      clock.now += 100;
      doc.update({ padding }, 'padding');
    }
    clock.now += 5000;
    doc.update({ padding: 40 }, 'padding');
    expect(doc.history.undoSteps).toBe(2);
    expect(doc.undo()?.settings.padding).toBe(30);
  });

  it.each([
    ['format', { format: 'webp' }],
    ['quality', { quality: 'low' }],
    ['scale', { scale: 3 }],
  ] as const)('takes no undo step for a change of export %s, and keeps the redo steps', (_name, change) => {
    // Arrange: one step undone, so there is a step to redo
    const { doc } = model();
    doc.update({ padding: 10 });
    doc.undo();

    // Act
    doc.update(change);

    // Assess
    expect({ undo: doc.history.undoSteps, redo: doc.history.redoSteps }).toEqual({ undo: 0, redo: 1 });
    expect(doc.settings).toEqual({ ...DEFAULT_SETTINGS, ...change });
  });

  it('leaves the export settings as they are on undo and redo', () => {
    // Arrange
    const { doc } = model();
    doc.update({ padding: 10 });
    doc.edit({ annotations: [box('a')] });
    doc.update({ format: 'jpeg', quality: 'medium', scale: 2 });

    // Act
    const undone = doc.undo();
    const afterUndo = doc.settings;
    doc.undo();
    const redone = doc.redo();

    // Assess
    const chosen = { format: 'jpeg', quality: 'medium', scale: 2 };
    expect(undone).toEqual({ settings: { ...DEFAULT_SETTINGS, padding: 10, ...chosen }, edits: { crop: null, annotations: [] } });
    expect(afterUndo).toEqual({ ...DEFAULT_SETTINGS, padding: 10, ...chosen });
    expect(redone?.settings).toEqual({ ...DEFAULT_SETTINGS, padding: 10, ...chosen });
    expect(doc.settings).toEqual({ ...DEFAULT_SETTINGS, padding: 10, ...chosen });
  });

  it('records a change of the picture and the export settings together as one step, whose undo keeps the export settings', () => {
    const { doc } = model();
    doc.update({ padding: 0, format: 'webp' });
    expect(doc.history.undoSteps).toBe(1);
    expect(doc.undo()?.settings).toEqual({ ...DEFAULT_SETTINGS, format: 'webp' });
  });

  it('shows a draft without an undo step, and records the whole gesture as one step when kept', () => {
    // Arrange
    const { doc } = model();
    doc.edit({ annotations: [box('a')] });
    const start = doc.snapshot();

    // Act
    doc.draft({ ...doc.edits, annotations: [box('a', 60)] });
    doc.draft({ ...doc.edits, annotations: [box('a', 70)] });
    const during = { steps: doc.history.undoSteps, edits: doc.edits.annotations };
    const before = doc.endDraft(true);

    // Assess
    expect(during).toEqual({ steps: 1, edits: [box('a', 70)] });
    expect(before).toEqual(start);
    expect(doc.history.undoSteps).toBe(2);
    expect(doc.undo()?.edits.annotations).toEqual([box('a')]);
  });

  it('puts back what was there when a draft is dropped, and records nothing for an empty gesture', () => {
    const { doc } = model();
    doc.draft({ crop: null, annotations: [box('a')] });
    expect(doc.endDraft(false)).toBeUndefined();
    expect(doc.edits.annotations).toEqual([]);
    expect(doc.endDraft(true)).toBeUndefined();
    expect(doc.history.undoSteps).toBe(0);
  });

  it('opens another source with its own edits and history, dropping a draft under way', () => {
    // Arrange
    const { doc } = model();
    doc.edit({ annotations: [box('a')] });
    doc.draft({ crop: null, annotations: [box('b')] });

    // Act
    doc.open({ crop: { x: 0, y: 0, width: 20, height: 20 }, annotations: [] });

    // Assess
    expect(doc.edits.crop).toEqual({ x: 0, y: 0, width: 20, height: 20 });
    expect(doc.history.undoSteps).toBe(0);
    expect(doc.endDraft(true)).toBeUndefined();
  });
});
