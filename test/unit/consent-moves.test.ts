/** blockBanners' choices after load (consent-moves.ts), from looks made up here. */
import { describe, expect, it } from 'vitest';
import type { ConsentLook } from '#shared/services/capture/consent-in-page.ts';
import { nextMove, verdict } from '#shared/services/capture/consent-moves.ts';
import type { ConsentMemory } from '#shared/services/capture/consent-moves.ts';

const look = (change: Partial<ConsentLook> = {}): ConsentLook => ({ lifecycle: 'started', cosmetic: false, known: 0, dialogs: 0, ...change });
const memory = (change: Partial<ConsentMemory> = {}): ConsentMemory => ({ tried: [], clicked: [], graceOver: false, ...change });

describe('nextMove', () => {
  it.each([
    ['autoconsent works on a dialog', look({ lifecycle: 'runningOptOut', known: 1 }), memory(), { wait: 'runningOptOut' }],
    ['a known container waits for its rule', look({ known: 1 }), memory(), { wait: 'started' }],
    ['an unknown dialog waits for the rules to begin', look({ lifecycle: 'initialized', dialogs: 1 }), memory(), { wait: 'initialized' }],
    ['a refused dialog is given time to leave', look({ lifecycle: 'done', dialogs: 1 }), memory(), { wait: 'leaving' }],
    ['a clicked control is given time to work', look({ dialogs: 1 }), memory({ tried: ['reject'], clicked: ['reject'] }), { wait: 'leaving' }],
  ])('waits when %s', (_case, seen, kept, move) => {
    expect(nextMove(seen, kept)).toEqual(move);
  });

  it.each([
    ['an unknown dialog once the rules search', look({ dialogs: 1 }), memory(), { click: 'reject' }],
    ['a dialog a cosmetic rule did not hide', look({ lifecycle: 'done', cosmetic: true, dialogs: 1 }), memory(), { click: 'reject' }],
    ['a dialog with no reject control', look({ dialogs: 1 }), memory({ tried: ['reject'] }), { click: 'close' }],
    ['a refusal that left the dialog', look({ dialogs: 1 }), memory({ tried: ['reject'], clicked: ['reject'], graceOver: true }), { click: 'close' }],
    ["a rule's refusal that left the dialog", look({ lifecycle: 'done', known: 1 }), memory({ graceOver: true }), { click: 'close' }],
    [
      'a dialog autoconsent turned to after a click here',
      look({ lifecycle: 'cmpDetected', dialogs: 1 }),
      memory({ tried: ['reject'], clicked: ['reject'], graceOver: true }),
      { click: 'close' },
    ],
  ])('tries a control on %s', (_case, seen, kept, move) => {
    expect(nextMove(seen, kept)).toEqual(move);
  });

  it.each([
    ['nothing shows', look(), memory()],
    ['nothing shows after a refusal', look({ lifecycle: 'done' }), memory()],
    ['both controls were tried', look({ dialogs: 1 }), memory({ tried: ['reject', 'close'], clicked: ['close'], graceOver: true })],
  ])('finishes when %s', (_case, seen, kept) => {
    expect(nextMove(seen, kept)).toBe('finish');
  });
});

describe('verdict', () => {
  it.each([
    ['opted-out', 'a reject control left nothing showing', look(), look(), memory({ clicked: ['reject'] })],
    ['opted-out', "autoconsent's rule left nothing showing", look({ lifecycle: 'done' }), look(), memory()],
    ['closed', 'a close control left nothing showing', look(), look(), memory({ clicked: ['reject', 'close'] })],
    ['hidden', 'hiding took away what still showed after a refusal', look({ dialogs: 1 }), look(), memory({ clicked: ['reject'] })],
    ['hidden', 'a cosmetic rule hid it', look({ lifecycle: 'done', cosmetic: true }), look(), memory()],
    ['hidden', 'a known container showed and was hidden', look({ lifecycle: 'optOutFailed', known: 1 }), look(), memory()],
    ['shown', 'hiding did not take it away', look({ dialogs: 1 }), look({ dialogs: 1 }), memory({ tried: ['reject', 'close'] })],
    ['shown', 'autoconsent found a dialog it could not refuse and no look sees it', look({ lifecycle: 'optOutFailed' }), look(), memory()],
    ['none', 'no dialog was found', look(), look(), memory()],
  ])('says %s when %s', (result, _case, before, after, kept) => {
    expect(verdict(before, after, kept)).toBe(result);
  });
});
