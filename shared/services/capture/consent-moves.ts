/** blockBanners' choices after load, from what the page showed (consent-in-page.ts): when to wait, what to try, what happened. */
import type { CaptureReport } from '#shared/schemas/screenshot.ts';
import type { ConsentControl, ConsentLook } from '#shared/services/capture/consent-in-page.ts';

export type ConsentResult = NonNullable<CaptureReport['consent']>;

/** autoconsent's lifecycle states (its `LifecycleState`): at work on a dialog, not yet searching, searching, refused by a rule, found one. */
const LIFECYCLE = {
  busy: ['cmpDetected', 'openPopupDetected', 'runningOptOut', 'runningOptIn'],
  starting: ['loading', 'initialized', 'waitingForInitResponse'],
  searching: ['loading', 'initialized', 'waitingForInitResponse', 'started'],
  succeeded: ['optOutSucceeded', 'done'],
  found: ['openPopupDetected', 'runningOptOut', 'runningOptIn', 'optOutSucceeded', 'optOutFailed', 'optInSucceeded', 'optInFailed', 'done'],
};

export interface ConsentMemory {
  tried: ConsentControl[];
  clicked: ConsentControl[];
  /** What was refused or closed has had its time to leave. */
  graceOver: boolean;
}

export type ConsentMove = { wait: string } | { click: ConsentControl } | 'finish';

const showing = (look: ConsentLook) => look.known + look.dialogs > 0;
/** autoconsent's rule refused: its opt-out ran, and did more than hide. */
const ruleRefused = (look: ConsentLook) => LIFECYCLE.succeeded.includes(look.lifecycle) && !look.cosmetic;

/** autoconsent's rules first (while it works or has yet to search); then, while a dialog shows: time to leave, reject, close, each once; then hide. */
export function nextMove(look: ConsentLook, memory: ConsentMemory): ConsentMove {
  if (memory.clicked.length === 0) {
    if (LIFECYCLE.busy.includes(look.lifecycle)) return { wait: look.lifecycle };
    const searching = LIFECYCLE.searching.includes(look.lifecycle);
    if (searching && (look.known > 0 || (showing(look) && LIFECYCLE.starting.includes(look.lifecycle)))) return { wait: look.lifecycle };
  }
  if (!showing(look)) return 'finish';
  const refused = ruleRefused(look);
  if ((refused || memory.clicked.length > 0) && !memory.graceOver) return { wait: 'leaving' };
  if (!refused && !memory.tried.includes('reject')) return { click: 'reject' };
  if (!memory.tried.includes('close')) return { click: 'close' };
  return 'finish';
}

/** `opted-out` and `closed` only when nothing showed after the refusal or close; whatever hiding took away is `hidden`. */
export function verdict(before: ConsentLook, after: ConsentLook, memory: ConsentMemory): ConsentResult {
  if (showing(before)) return showing(after) ? 'shown' : 'hidden';
  const last = memory.clicked.at(-1);
  if (last === 'close') return 'closed';
  if (last === 'reject' || ruleRefused(before)) return 'opted-out';
  // A cosmetic rule hid it; a dialog autoconsent found and could not refuse may show where no look reaches.
  if (LIFECYCLE.succeeded.includes(before.lifecycle)) return 'hidden';
  return LIFECYCLE.found.includes(before.lifecycle) ? 'shown' : 'none';
}
