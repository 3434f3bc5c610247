/**
 * The editor's own rows of the command table: tools, undo and redo, the selection, the shortcut
 * list and zoom. The crop tool and the export panel add theirs. Built over a host, so Node tests it.
 */
import type { Command, Focus } from './commands.ts';

/** What the commands act on; the page's host is main.ts's wiring of the editor and the annotator. */
export interface CommandHost {
  hasSource(): boolean;
  tool(): string;
  setTool(tool: string): void;
  /** A drag or a text edit under way: undo and tool switches wait for it. */
  busy(): boolean;
  canUndo(): boolean;
  canRedo(): boolean;
  undo(): void;
  redo(): void;
  hasSelection(): boolean;
  selectionIsText(): boolean;
  hasAnnotations(): boolean;
  /** Something Escape would end: a drag, a text edit or a selection. */
  canEscape(): boolean;
  escape(): void;
  deleteSelected(): void;
  duplicateSelected(): void;
  nudge(dx: number, dy: number): void;
  selectAdjacent(step: 1 | -1): void;
  editSelected(): void;
  shortcutsOpen(): boolean;
  setShortcutsOpen(open: boolean): void;
  zoom(action: 'in' | 'out' | 'fit' | 'actual'): void;
}

/** Tools by single key, in toolbar order; C is the crop tool's. */
export const TOOLS: readonly { tool: string; key: string; label: string }[] = [
  { tool: 'select', key: 'V', label: 'Select and move' },
  { tool: 'arrow', key: 'A', label: 'Arrow' },
  { tool: 'line', key: 'L', label: 'Line' },
  { tool: 'rect', key: 'R', label: 'Rectangle' },
  { tool: 'ellipse', key: 'O', label: 'Ellipse' },
  { tool: 'highlight', key: 'H', label: 'Highlighter' },
  { tool: 'pen', key: 'D', label: 'Pen' },
  { tool: 'text', key: 'T', label: 'Text' },
  { tool: 'step', key: 'N', label: 'Step marker' },
  { tool: 'blur', key: 'B', label: 'Blur' },
  { tool: 'pixelate', key: 'P', label: 'Pixelate' },
];

const ARROWS: Readonly<Record<string, [number, number]>> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const ARROW_KEYS = Object.keys(ARROWS).flatMap((key) => [key, `Shift+${key}`]);
/** Arrow keys and brackets belong to sliders, radios and lists when those have the focus. */
const NOT_ARROW_CONTROLS: readonly Focus[] = ['page', 'control'];

/** An arrow key's step in pixels: one, ten with Shift. */
export function arrowStep(key: string, shift: boolean): [number, number] | undefined {
  const unit = ARROWS[key];
  return unit && [unit[0] * (shift ? 10 : 1), unit[1] * (shift ? 10 : 1)];
}

export function editorCommands(host: CommandHost): Command[] {
  const idle = () => !host.busy();
  const selected = () => host.hasSelection() && !host.busy();
  const tools: Command[] = TOOLS.map(({ tool, key, label }) => ({
    id: `tool.${tool}`,
    label,
    keys: [key],
    repeat: false,
    enabled: idle,
    // A key picks the tool; its button picks it or, pressed again, goes back to select.
    run: (input) => host.setTool(!input && host.tool() === tool && tool !== 'select' ? 'select' : tool),
  }));
  // In the order the shortcut list shows them; where two share a key, the first enabled one runs.
  return [
    {
      id: 'shortcuts.close',
      label: 'Close the shortcut list',
      keys: ['Escape'],
      keysLabel: '',
      enabled: host.shortcutsOpen,
      run: () => host.setShortcutsOpen(false),
    },
    ...tools,
    { id: 'undo', label: 'Undo', keys: ['Mod+Z'], enabled: () => host.canUndo() && idle(), run: host.undo },
    { id: 'redo', label: 'Redo', keys: ['Shift+Mod+Z', 'Ctrl+Y'], enabled: () => host.canRedo() && idle(), run: host.redo },
    { id: 'selection.duplicate', label: 'Duplicate', keys: ['Mod+D'], enabled: selected, run: host.duplicateSelected },
    { id: 'selection.delete', label: 'Delete', keys: ['Delete', 'Backspace'], enabled: selected, run: host.deleteSelected },
    { id: 'selection.escape', label: 'Deselect, or stop what is under way', keys: ['Escape'], enabled: host.canEscape, run: host.escape },
    {
      id: 'selection.nudge',
      label: 'Nudge the selection 1 px (with Shift 10 px)',
      keys: ARROW_KEYS,
      keysLabel: '← ↑ → ↓',
      focus: NOT_ARROW_CONTROLS,
      enabled: selected,
      run: (input) => {
        const step = input && arrowStep(input.key, input.shiftKey);
        if (step) host.nudge(step[0], step[1]);
      },
    },
    {
      id: 'selection.previous',
      label: 'Select the previous annotation',
      keys: ['['],
      focus: NOT_ARROW_CONTROLS,
      enabled: () => host.hasAnnotations() && idle(),
      run: () => host.selectAdjacent(-1),
    },
    {
      id: 'selection.next',
      label: 'Select the next annotation',
      keys: [']'],
      focus: NOT_ARROW_CONTROLS,
      enabled: () => host.hasAnnotations() && idle(),
      run: () => host.selectAdjacent(1),
    },
    // Enter on a control is that control's; on the page or the preview it edits the selected text.
    {
      id: 'selection.edit',
      label: 'Edit the selected text',
      keys: ['Enter'],
      focus: ['page'],
      enabled: () => host.selectionIsText() && idle(),
      run: host.editSelected,
    },
    { id: 'zoom.in', label: 'Zoom in', keys: ['+', '='], enabled: host.hasSource, run: () => host.zoom('in') },
    { id: 'zoom.out', label: 'Zoom out', keys: ['-'], enabled: host.hasSource, run: () => host.zoom('out') },
    { id: 'zoom.fit', label: 'Zoom to fit', keys: ['0'], enabled: host.hasSource, run: () => host.zoom('fit') },
    { id: 'zoom.actual', label: 'Zoom to 100 %', keys: ['1'], enabled: host.hasSource, run: () => host.zoom('actual') },
    { id: 'shortcuts.toggle', label: 'Show or hide this list', keys: ['?'], run: () => host.setShortcutsOpen(!host.shortcutsOpen()) },
  ];
}
