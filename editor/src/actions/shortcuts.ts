/** The page's one keydown listener: it says where the focus is and lets the command table decide. */
import { keysOf } from './commands.ts';
import type { Commands, Focus } from './commands.ts';
import { h } from '../dom.ts';

const TEXT_INPUTS = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);

/** Where keys are someone's typing. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type);
}

/** Controls that use the arrow keys themselves (sliders, radio groups, tabs, lists). */
function ownsArrows(target: HTMLElement): boolean {
  if (target instanceof HTMLInputElement) return true;
  return target.closest('[role="tab"], [role="tablist"], [role="radio"], [role="slider"], [role="listbox"], [role="menu"]') !== null;
}

export function focusOf(target: EventTarget | null): Focus {
  if (!(target instanceof HTMLElement) || target === document.body) return 'page';
  // The crop's number fields take Enter (apply what was typed) and Escape (cancel).
  if (target instanceof HTMLInputElement && target.type === 'number' && target.closest('#crop-bar')) return 'crop-field';
  if (isTyping(target)) return 'typing';
  if (target.closest('#stage')) return 'page';
  return ownsArrows(target) ? 'arrows' : 'control';
}

/** The "Keyboard shortcuts" list: a row for each command with keys, from the table itself, before the notes the page has. */
function listShortcuts(commands: Commands, list: HTMLElement): void {
  const rows = commands
    .list()
    .filter((command) => keysOf(command) !== '')
    .map((command) =>
      h(
        'div',
        {},
        h(
          'dt',
          {},
          ...keysOf(command)
            .split(', ')
            .flatMap((keys, index) => [...(index > 0 ? [', '] : []), h('kbd', {}, keys)]),
        ),
        h('dd', {}, command.label),
      ),
    );
  list.prepend(...rows);
}

export function setupShortcuts(commands: Commands): void {
  const list = document.getElementById('shortcut-list');
  if (list) listShortcuts(commands, list);
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.isComposing) return;
    const input = {
      key: event.key,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      shiftKey: event.shiftKey,
      altKey: event.altKey,
      repeat: event.repeat,
      focus: focusOf(event.target),
    };
    if (commands.dispatch(input)) event.preventDefault();
  });
}
