/** The editor's command table in Node: key chords, focus, enabled rows and the first match winning. */
import { describe, expect, it, vi } from 'vitest';
import { Commands, formatChord, keysOf, matches, parseChord } from '#editor/src/actions/commands.ts';
import type { KeyInput } from '#editor/src/actions/commands.ts';
import { editorCommands } from '#editor/src/actions/editor-commands.ts';
import type { CommandHost } from '#editor/src/actions/editor-commands.ts';

const key = (k: string, extra: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  focus: 'page',
  ...extra,
});

function host(overrides: Partial<CommandHost> = {}): CommandHost {
  const state = { tool: 'select', open: false };
  return {
    hasSource: () => true,
    tool: () => state.tool,
    setTool: vi.fn((tool: string) => {
      state.tool = tool;
    }),
    busy: () => false,
    canUndo: () => true,
    canRedo: () => false,
    undo: vi.fn(),
    redo: vi.fn(),
    hasSelection: () => false,
    selectionIsText: () => false,
    hasAnnotations: () => false,
    canEscape: () => false,
    escape: vi.fn(),
    deleteSelected: vi.fn(),
    duplicateSelected: vi.fn(),
    nudge: vi.fn(),
    selectAdjacent: vi.fn(),
    editSelected: vi.fn(),
    shortcutsOpen: () => state.open,
    setShortcutsOpen: vi.fn((open: boolean) => {
      state.open = open;
    }),
    zoom: vi.fn(),
    ...overrides,
  };
}

function table(h: CommandHost): Commands {
  const commands = new Commands();
  commands.register(...editorCommands(h));
  return commands;
}

describe('key chords', () => {
  it.each<[string, KeyInput, boolean]>([
    ['Mod+Z', key('z', { ctrlKey: true }), true],
    ['Mod+Z', key('z', { metaKey: true }), true],
    ['Mod+Z', key('Z', { ctrlKey: true, shiftKey: true }), false],
    ['Shift+Mod+Z', key('Z', { metaKey: true, shiftKey: true }), true],
    ['Ctrl+Y', key('y', { metaKey: true }), false],
    ['V', key('v'), true],
    ['V', key('v', { ctrlKey: true }), false],
    ['V', key('V', { shiftKey: true }), false],
    ['?', key('?', { shiftKey: true }), true],
    ['+', key('+', { shiftKey: true }), true],
    ['Shift+ArrowLeft', key('ArrowLeft', { shiftKey: true }), true],
    ['ArrowLeft', key('ArrowLeft', { altKey: true }), false],
  ])('matches %s against %o: %s', (chord, input, expected) => {
    expect(matches(chord, input)).toBe(expected);
  });

  it.each([
    ['Shift+Mod+Z', 'Shift+Ctrl/⌘+Z'],
    ['Ctrl+Y', 'Ctrl+Y'],
    ['ArrowLeft', '←'],
    ['Escape', 'Esc'],
    ['-', '−'],
    ['d', 'D'],
  ])('shows %s as %s in the shortcut list', (chord, shown) => {
    expect(formatChord(chord)).toBe(shown);
  });

  it('lists a command by its own keys label when it has one, and leaves out one whose label is empty', () => {
    const rows = editorCommands(host()).map((command) => [command.id, keysOf(command)]);
    expect(rows).toContainEqual(['redo', 'Shift+Ctrl/⌘+Z, Ctrl+Y']);
    expect(rows).toContainEqual(['selection.nudge', '← ↑ → ↓']);
    expect(rows).toContainEqual(['shortcuts.close', '']);
  });

  it('reads a chord whose key is the plus sign', () => {
    expect(parseChord('Mod++')).toEqual({ key: '+', mod: true, ctrl: false, shift: false, alt: false });
  });
});

describe('the command table', () => {
  it('runs the tool whose key is pressed, and not while a drag is under way', () => {
    // Arrange
    let busy = false;
    const h = host({ busy: () => busy });
    const commands = table(h);

    // Act
    const first = commands.dispatch(key('r'));
    busy = true;
    const second = commands.dispatch(key('o'));

    // Assess
    expect([first, second]).toEqual([true, false]);
    expect(h.setTool).toHaveBeenCalledTimes(1);
    expect(h.setTool).toHaveBeenCalledWith('rect');
  });

  it('picks the pen with D, and a tool button pressed again goes back to select', () => {
    const h = host();
    const commands = table(h);
    commands.dispatch(key('d'));
    commands.run('tool.pen');
    expect(vi.mocked(h.setTool).mock.calls).toEqual([['pen'], ['select']]);
  });

  it('lets a disabled command fall through, so the browser keeps the key', () => {
    const h = host({ canUndo: () => false });
    const commands = table(h);
    expect(commands.dispatch(key('z', { ctrlKey: true }))).toBe(false);
    expect(commands.run('undo')).toBe(false);
    expect(h.undo).not.toHaveBeenCalled();
  });

  it('runs nothing while a field is being typed in', () => {
    const h = host({ hasSelection: () => true });
    const commands = table(h);
    expect(['v', 'Delete', 'ArrowLeft', '?'].map((k) => commands.dispatch(key(k, { focus: 'typing' })))).toEqual([false, false, false, false]);
  });

  it('leaves the arrow keys to sliders and lists, and nudges 10 px with Shift elsewhere', () => {
    const h = host({ hasSelection: () => true });
    const commands = table(h);
    expect(commands.dispatch(key('ArrowRight', { focus: 'arrows' }))).toBe(false);
    expect(commands.dispatch(key('ArrowUp', { shiftKey: true }))).toBe(true);
    expect(h.nudge).toHaveBeenCalledWith(0, -10);
  });

  it('gives Escape to the shortcut list before the selection', () => {
    const h = host({ canEscape: () => true, shortcutsOpen: () => true });
    const commands = table(h);
    commands.dispatch(key('Escape'));
    expect(h.setShortcutsOpen).toHaveBeenCalledWith(false);
    expect(h.escape).not.toHaveBeenCalled();
  });

  it('runs the first enabled row when two share a key, so a tool can take a key while it is active', () => {
    // Arrange
    let cropping = false;
    const crop = vi.fn();
    const commands = new Commands();
    commands.register({ id: 'a', label: 'A', keys: ['Enter'], enabled: () => cropping, run: crop }, { id: 'b', label: 'B', keys: ['Enter'], run: vi.fn() });

    // Act
    commands.dispatch(key('Enter'));
    cropping = true;
    commands.dispatch(key('Enter'));

    // Assess
    expect(crop).toHaveBeenCalledTimes(1);
    expect(commands.get('b')!.run).toHaveBeenCalledTimes(1);
  });

  it('refuses a second row with the same id', () => {
    const commands = table(host());
    expect(() => commands.register({ id: 'undo', label: 'Undo', run: () => undefined })).toThrow('registered twice');
  });

  it('does not repeat a tool switch while its key is held', () => {
    const h = host();
    expect(table(h).dispatch(key('a', { repeat: true }))).toBe(false);
  });
});
