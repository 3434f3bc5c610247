/**
 * One table of the editor's commands (id, label, keys, when enabled, run) that toolbar buttons,
 * shortcuts and tools share, in the manner of Excalidraw's actions. Plain logic: no DOM here.
 */

/** Where the keyboard focus is, as the page classifies it (keyboard.ts). */
export type Focus = 'page' | 'control' | 'arrows' | 'typing' | 'crop-field';

/** The parts of a KeyboardEvent a command's keys are matched on. */
export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  repeat?: boolean;
  focus: Focus;
}

export interface Command {
  id: string;
  label: string;
  /** Chords such as `Mod+Z` (Ctrl or ⌘), `Ctrl+Y`, `Shift+ArrowLeft`, `V`, `?`. */
  keys?: readonly string[];
  /** Where the keys act; by default anywhere but a field being typed in. */
  focus?: readonly Focus[];
  /** Held keys repeat the command unless this is false (tools: one press, one switch). */
  repeat?: boolean;
  /** A disabled command's keys fall through to the page, and its button is disabled. */
  enabled?: () => boolean;
  /** How the shortcut list shows the keys, when not each chord in turn (the arrow keys, say); '' leaves the row out. */
  keysLabel?: string;
  /** `key` is the chord's event, when a key ran it. */
  run: (key?: KeyInput) => void;
}

const DEFAULT_FOCUS: readonly Focus[] = ['page', 'control', 'arrows'];

interface Chord {
  key: string;
  mod: boolean;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
}

/** `Shift+Mod+Z` → its parts; the key is compared without case. */
export function parseChord(chord: string): Chord {
  // The last part is the key, which may itself be '+'.
  const plus = chord.endsWith('+');
  const parts = (plus ? chord.slice(0, -1) : chord).split('+').filter((part) => part !== '');
  const key = plus ? '+' : parts.pop()!;
  return { key: key.toLowerCase(), mod: parts.includes('Mod'), ctrl: parts.includes('Ctrl'), shift: parts.includes('Shift'), alt: parts.includes('Alt') };
}

/** Letters and named keys need Shift as written; a symbol (?, [) is what Shift already typed. */
export function matches(chord: string, input: KeyInput): boolean {
  const want = parseChord(chord);
  if (input.key.toLowerCase() !== want.key) return false;
  if (input.altKey !== want.alt) return false;
  const symbol = want.key.length === 1 && !/[a-z0-9]/.test(want.key);
  if (!symbol && input.shiftKey !== want.shift) return false;
  if (want.mod) return input.ctrlKey || input.metaKey;
  if (want.ctrl) return input.ctrlKey && !input.metaKey;
  return !input.ctrlKey && !input.metaKey;
}

const KEY_NAMES: Readonly<Record<string, string>> = {
  arrowleft: '←',
  arrowright: '→',
  arrowup: '↑',
  arrowdown: '↓',
  escape: 'Esc',
  delete: 'Delete',
  backspace: 'Backspace',
  enter: 'Enter',
  '-': '−',
};

/** A chord as people read it: `Shift+Mod+Z` → `Shift+Ctrl/⌘+Z`. */
export function formatChord(chord: string): string {
  const { key, mod, ctrl, shift, alt } = parseChord(chord);
  const name = KEY_NAMES[key] ?? (key.length === 1 ? key.toUpperCase() : key);
  return [shift && 'Shift', alt && 'Alt', mod && 'Ctrl/⌘', ctrl && 'Ctrl', name].filter(Boolean).join('+');
}

/** The keys column of the shortcut list for a command, or '' when it has none to show. */
export function keysOf(command: Command): string {
  return command.keysLabel ?? (command.keys ?? []).map(formatChord).join(', ');
}

/** The table; the first enabled command whose keys match a key press runs it. */
export class Commands {
  private readonly table: Command[] = [];

  /** @throws Error when the id is taken: every command has one row. */
  register(...commands: Command[]): void {
    for (const command of commands) {
      if (this.get(command.id)) throw new Error(`Command ${command.id} is registered twice`);
      this.table.push(command);
    }
  }

  get(id: string): Command | undefined {
    return this.table.find((command) => command.id === id);
  }

  list(): readonly Command[] {
    return this.table;
  }

  isEnabled(id: string): boolean {
    const command = this.get(id);
    return command !== undefined && (command.enabled?.() ?? true);
  }

  /** Runs the command when enabled (a button's click); false when it did not run. */
  run(id: string): boolean {
    const command = this.get(id);
    if (!command || !this.isEnabled(id)) return false;
    command.run();
    return true;
  }

  /** The command a key press runs, if any, without running it. */
  find(input: KeyInput): Command | undefined {
    return this.table.find(
      (command) =>
        (command.focus ?? DEFAULT_FOCUS).includes(input.focus) &&
        !(input.repeat && command.repeat === false) &&
        (command.keys ?? []).some((chord) => matches(chord, input)) &&
        (command.enabled?.() ?? true),
    );
  }

  /** Runs what the key press asks for; true when a command ran (the page then prevents the default). */
  dispatch(input: KeyInput): boolean {
    const command = this.find(input);
    if (!command) return false;
    command.run(input);
    return true;
  }
}
