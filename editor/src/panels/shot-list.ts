/**
 * The shots of the chosen release, one row each: name, framing, status, size and what changed,
 * a failed one's error in words, and Open and Show the diff for a done one. A row is rebuilt only
 * when its shot changed, so a read while shots run leaves the focus and the scroll where they were.
 */
import { ApiError } from '../io/api.ts';
import { explainShot } from '../io/shot-problem.ts';
import { formatBytes, h, showProblem } from '../dom.ts';
import { changeText, dimensionsText, framingText, statusText } from '../model/releases.ts';
import type { ShotItem } from '../model/releases.ts';

export type ShotAction = 'open' | 'diff';

/** What a row shows; the same key, the same row. */
function rowKey(shot: ShotItem, baseline: string): string {
  return JSON.stringify([shot.runId, shot.status, shot.attempts, shot.assetId, shot.changes, shot.error?.code, baseline]);
}

function failure(shot: ShotItem): HTMLElement {
  const box = h('div', { class: 'shot-problem' });
  const envelope = shot.error;
  if (!envelope) {
    box.append(h('p', { class: 'problem-message' }, 'The shot failed without saying why.'));
    return box;
  }
  // The envelope as the API answers any failure, so Details shows its message, hint and reference.
  const error = new ApiError({ ...envelope, path: '/api/screenshot' });
  showProblem(box, error, explainShot(envelope));
  return box;
}

function row(shot: ShotItem, titleOf: (releaseId: string) => string | undefined): HTMLLIElement {
  const named = `${shot.name} (${framingText(shot)})`;
  const meta = [framingText(shot), dimensionsText(shot), shot.bytes === undefined ? '' : formatBytes(shot.bytes)].filter(Boolean).join(' · ');
  const item = h(
    'li',
    { class: 'shot', 'data-name': shot.name, 'data-status': shot.status },
    h('div', { class: 'shot-head' }, h('span', { class: 'shot-name' }, shot.name), h('span', { class: 'shot-status' }, statusText(shot))),
    h('p', { class: 'shot-meta' }, meta),
  );
  const change = changeText(shot, titleOf);
  if (change) item.append(h('p', { class: 'shot-change' }, change));
  if (shot.redactionCount) item.append(h('p', { class: 'shot-meta' }, `${shot.redactionCount} redaction boxes painted when it was taken.`));
  if (shot.status === 'failed') item.append(failure(shot));
  if (shot.status === 'done' && shot.assetId) {
    const actions = h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', 'data-action': 'open', 'aria-label': `Open the shot ${named} as the source` }, 'Open'),
    );
    if (shot.changes) {
      actions.append(h('button', { type: 'button', 'data-action': 'diff', 'aria-label': `Show what changed in ${named}` }, 'Show the diff'));
    }
    item.append(actions);
  }
  return item;
}

export class ShotList {
  private readonly list: HTMLUListElement;
  private keys = new Map<string, string>();

  constructor(list: HTMLUListElement, act: (action: ShotAction, name: string) => void) {
    this.list = list;
    list.addEventListener('click', (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>('button[data-action]');
      const name = button?.closest<HTMLElement>('.shot')?.dataset.name;
      if (button && name) act(button.dataset.action as ShotAction, name);
    });
  }

  /** Shows `shots`, rebuilding only the rows whose shot changed; the focus stays on a row kept. */
  show(shots: readonly ShotItem[], titleOf: (releaseId: string) => string | undefined): void {
    const current = [...this.list.querySelectorAll<HTMLLIElement>(':scope > .shot')];
    const sameRows = current.length === shots.length && current.every((item, index) => item.dataset.name === shots[index]!.name);
    const keys = new Map(shots.map((shot) => [shot.name, rowKey(shot, shot.changes ? (titleOf(shot.changes.baseline.releaseId) ?? '') : '')]));
    if (!sameRows) {
      this.list.replaceChildren(...shots.map((shot) => row(shot, titleOf)));
    } else {
      shots.forEach((shot, index) => {
        if (this.keys.get(shot.name) !== keys.get(shot.name)) current[index]!.replaceWith(row(shot, titleOf));
      });
    }
    this.keys = keys;
  }

  clear(): void {
    this.list.replaceChildren();
    this.keys.clear();
  }
}
