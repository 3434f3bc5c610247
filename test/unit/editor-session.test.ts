/** What a reload brings back: undo steps as plain data, edits and settings checked as they are read, and the recent list's bounds. */
import { describe, expect, it } from 'vitest';
import { editsFrom } from '#editor/src/model/edits.ts';
import type { Edits } from '#editor/src/model/edits.ts';
import { History } from '#editor/src/model/history.ts';
import { keepRecent, openedAgo, RECENT_LIMIT, sessionFrom, sourceId } from '#editor/src/model/session.ts';
import { DEFAULT_SETTINGS, settingsFromStored } from '#editor/src/model/settings.ts';

const BOX: Edits = { crop: null, annotations: [{ id: 'a1', kind: 'rect', x1: 1, y1: 2, x2: 30, y2: 40, color: '#ff3b30', width: 4 }] };
const TEXT: Edits = {
  crop: { x: 0, y: 0, width: 100, height: 50 },
  annotations: [{ id: 't1', kind: 'text', x: 5, y: 6, text: 'Hi', color: '#111111', size: 24, weight: 700 }],
};
const snapshot = (edits: Edits, padding = 64) => ({ settings: { ...DEFAULT_SETTINGS, padding }, edits });

describe('History state', () => {
  it('survives a structured clone and undoes and redoes as before', () => {
    // Prepare
    const history = new History<ReturnType<typeof snapshot>>(100);
    history.record(snapshot({ crop: null, annotations: [] }), undefined, 0);
    history.record(snapshot(BOX), undefined, 10_000);
    history.undo(snapshot(TEXT));

    // Act: through the browser's own copy, as IndexedDB keeps it
    const restored = new History<ReturnType<typeof snapshot>>(100);
    restored.restore(structuredClone(history.state()));

    // Assess
    expect(restored.undoSteps).toBe(1);
    expect(restored.redoSteps).toBe(1);
    expect(restored.redo(snapshot(BOX))).toEqual(snapshot(TEXT));
    expect(restored.undo(snapshot(TEXT))).toEqual(snapshot(BOX));
  });

  it('keeps the newest steps when more than its limit come back', () => {
    const history = new History<number>(3);
    history.restore({ past: [1, 2, 3, 4, 5], future: [9, 8, 7, 6] });
    expect(history.state()).toEqual({ past: [3, 4, 5], future: [8, 7, 6] });
  });

  it('hands out a copy that later steps do not change', () => {
    const history = new History<number>(10);
    history.record(1, undefined, 0);
    const state = history.state();
    history.record(2, undefined, 10_000);
    expect(state.past).toEqual([1]);
  });
});

describe('sessionFrom', () => {
  it('reads back a session kept by the editor', () => {
    const kept = { edits: TEXT, history: { past: [snapshot(BOX, 32)], future: [snapshot(TEXT, 80)] } };
    expect(sessionFrom(structuredClone(kept), 100)).toEqual(kept);
  });

  it('leaves out a step that no longer reads, and keeps the rest', () => {
    // Prepare
    const raw = {
      edits: BOX,
      history: { past: [snapshot(BOX), { settings: 'x', edits: BOX }, null, { settings: {}, edits: { annotations: 'no' } }], future: 'broken' },
    };

    // Act
    const session = sessionFrom(raw, 100);

    // Assess
    expect(session?.history).toEqual({ past: [snapshot(BOX)], future: [] });
  });

  it('is undefined without edits to read', () => {
    expect(sessionFrom(undefined, 100)).toBeUndefined();
    expect(sessionFrom({ history: { past: [], future: [] } }, 100)).toBeUndefined();
  });
});

describe('editsFrom', () => {
  it('drops a broken annotation and a broken crop, keeping the rest', () => {
    const raw = {
      crop: { x: 0, y: 0, width: -5, height: 10 },
      annotations: [BOX.annotations[0], { id: 'x', kind: 'rect', color: '#000000' }, { kind: 'laser' }, TEXT.annotations[0]],
    };
    expect(editsFrom(raw)).toEqual({ crop: null, annotations: [BOX.annotations[0], TEXT.annotations[0]] });
  });

  it('keeps every kind of annotation as it was', () => {
    const annotations = [
      ...BOX.annotations,
      ...TEXT.annotations,
      { id: 's1', kind: 'step', x: 10, y: 10, n: 2, color: '#007aff', size: 28 },
      { id: 'b1', kind: 'blur', x1: 0, y1: 0, x2: 5, y2: 5, color: '#000000', width: 2 },
      { id: 'p1', kind: 'pen', points: [0, 0, 4, 6, 9, 2], color: '#34c759', width: 6 },
    ];
    expect(editsFrom({ crop: TEXT.crop, annotations })).toEqual({ crop: TEXT.crop, annotations });
  });
});

describe('settingsFromStored', () => {
  it('checks each field as a link would, falling back one by one', () => {
    const settings = settingsFromStored({ ...DEFAULT_SETTINGS, padding: 9999, frame: 'nonsense', color: '#abcdef', scale: 3 });
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, padding: 256, color: '#abcdef', scale: 3 });
  });

  it('gives the defaults for what is not settings at all', () => {
    expect(settingsFromStored('padding=3')).toEqual(DEFAULT_SETTINGS);
  });
});

describe('the recent list', () => {
  it('keeps the newest sources up to its limit and names the rest to delete', () => {
    const records = Array.from({ length: RECENT_LIMIT + 2 }, (_, n) => ({ id: `s${n}`, openedAt: n * 1000 }));
    const { kept, dropped } = keepRecent(records);
    expect(kept.map((record) => record.id)).toEqual(
      records
        .slice(2)
        .reverse()
        .map((record) => record.id),
    );
    expect(dropped.map((record) => record.id)).toEqual(['s1', 's0']);
  });

  it('names a source by kind, description and size, so opening the same one again replaces its entry', () => {
    const capture = { kind: 'capture', description: 'capture of https://example.com/ (desktop, light)', width: 1280, height: 800 };
    expect(sourceId(capture)).toBe(sourceId({ ...capture }));
    expect(sourceId(capture)).not.toBe(sourceId({ ...capture, height: 801 }));
  });

  it('names a tweet card by its tweet, so the other theme is the same entry, and a page captured dark another', () => {
    const card = (id: string, theme: string) => ({
      kind: 'tweet',
      description: `Tweet by @easel, ${theme} card`,
      width: 550,
      height: 300,
      origin: { kind: 'tweet', view: { id } },
    });
    const capture = (scheme: string) => ({ kind: 'capture', description: `capture of https://example.com/ (desktop, ${scheme})`, width: 1280, height: 800 });
    expect(sourceId(card('20', 'dark'))).toBe(sourceId(card('20', 'light')));
    expect(sourceId(card('21', 'light'))).not.toBe(sourceId(card('20', 'light')));
    expect(sourceId(capture('dark'))).not.toBe(sourceId(capture('light')));
  });

  it.each([
    [30_000, 'just now'],
    [5 * 60_000, '5 min ago'],
    [3 * 3_600_000, '3 h ago'],
    [26 * 3_600_000, 'yesterday'],
    [4 * 86_400_000, '4 days ago'],
  ])('says %i ms ago as "%s"', (age, words) => {
    expect(openedAgo(1_000_000_000_000 - age, 1_000_000_000_000)).toBe(words);
  });
});
