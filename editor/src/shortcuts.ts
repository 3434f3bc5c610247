/** The editor's keyboard shortcuts: tools, undo and redo, the selection, export and copy. None fire while typing. */
import type { Annotator } from './annotate-tool.ts';
import { nudgeOf } from './annotation-geometry.ts';
import type { Editor } from './editor.ts';

/** Single keys, without modifiers, for the tools; crop-tool.ts takes C. */
export const TOOL_KEYS: Readonly<Record<string, string>> = { v: 'select', a: 'arrow', l: 'line', r: 'rect', o: 'ellipse', h: 'highlight', t: 'text', n: 'step', b: 'blur', p: 'pixelate' };

const TEXT_INPUTS = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);

/** Where keys are someone's typing. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type);
}

/** Controls that use the arrow keys themselves (sliders, radio groups, tabs, lists). */
function ownsArrows(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement || isTyping(target)) return true;
  return target.closest('[role="tab"], [role="tablist"], [role="radio"], [role="slider"], [role="listbox"], [role="menu"]') !== null;
}

function click(id: string): void {
  const button = document.getElementById(id);
  if (button instanceof HTMLButtonElement && !button.disabled) button.click();
}

export function setupShortcuts(editor: Editor, annotator: Annotator): void {
  const list = document.getElementById('annotate-shortcuts') as HTMLDetailsElement | null;
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.isComposing || isTyping(event.target)) return;
    const command = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (command && !event.altKey) {
      if (key === 'z' || (key === 'y' && event.ctrlKey && !event.shiftKey)) {
        event.preventDefault();
        if (annotator.busy()) return;
        if (key === 'y' || event.shiftKey) editor.redo();
        else editor.undo();
      } else if (key === 'd' && !event.shiftKey) {
        if (annotator.duplicateSelected()) event.preventDefault();
      } else if (key === 's' && !event.shiftKey) {
        event.preventDefault();
        click('export-button');
      } else if (key === 'c' && !event.shiftKey && (window.getSelection()?.toString() ?? '') === '') {
        event.preventDefault();
        click('copy-button');
      }
      return;
    }
    if (event.altKey) return;
    const nudge = nudgeOf(event.key, event.shiftKey);
    if (nudge) {
      if (!ownsArrows(event.target) && annotator.nudge(nudge.x, nudge.y)) event.preventDefault();
      return;
    }
    if (event.key === 'Delete' || event.key === 'Backspace') {
      if (annotator.deleteSelected()) event.preventDefault();
      return;
    }
    if (event.key === 'Escape') {
      if (list?.open) list.open = false;
      else if (annotator.escape()) event.preventDefault();
      return;
    }
    if ((event.key === '[' || event.key === ']') && !ownsArrows(event.target)) {
      if (annotator.selectAdjacent(event.key === ']' ? 1 : -1)) event.preventDefault();
      return;
    }
    // Enter on a control is that control's; on the page or the preview it edits the selected text.
    if (event.key === 'Enter' && (event.target === document.body || (event.target instanceof Element && event.target.closest('#stage') !== null))) {
      if (annotator.editSelected()) event.preventDefault();
      return;
    }
    if (event.key === '?') {
      if (list) list.open = !list.open;
      return;
    }
    if (event.shiftKey || event.repeat) return;
    const tool = TOOL_KEYS[key];
    if (tool && !annotator.busy()) {
      event.preventDefault();
      editor.setTool(tool);
    }
  });
}
