/** What the editor keeps in this browser's local storage: its settings, the fragment it last wrote, each recent source's edits and the kinds Redact finds. */
import { NO_EDITS } from '../model/edits.ts';
import type { Edits } from '../model/edits.ts';
import type { Source } from '../render/sources.ts';

export const STORAGE_KEY = 'easel.editor.settings';
/** Edits are kept per source, for the last few sources, so opening the same one again brings them back. */
const EDITS_KEY = 'easel.editor.edits';
const EDITS_KEPT = 12;
/** The fragment this editor last wrote to the address, to tell its own from a shared link's. */
export const FRAGMENT_KEY = 'easel.editor.fragment';
export const REDACT_KINDS_KEY = 'easel.editor.redact';

export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(entries: Record<string, string>): void {
  try {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  } catch {
    // Storage can be full or switched off; the URL still carries the settings, the boxes the kinds.
  }
}

export function sourceKey(source: Source): string {
  return `${source.kind}|${source.description}|${source.width}x${source.height}`;
}

export function readEdits(key: string): Edits {
  try {
    const all = JSON.parse(readStorage(EDITS_KEY) ?? '[]') as [string, Edits][];
    const found = all.find(([entry]) => entry === key)?.[1];
    return found && Array.isArray(found.annotations) ? { crop: found.crop ?? null, annotations: found.annotations } : NO_EDITS;
  } catch {
    return NO_EDITS;
  }
}

export function writeEdits(key: string, edits: Edits): void {
  let all: [string, Edits][] = [];
  try {
    all = JSON.parse(readStorage(EDITS_KEY) ?? '[]') as [string, Edits][];
  } catch {
    // A broken entry is replaced.
  }
  const rest = all.filter(([entry]) => entry !== key);
  const empty = edits.crop === null && edits.annotations.length === 0;
  writeStorage({ [EDITS_KEY]: JSON.stringify((empty ? rest : [[key, edits], ...rest]).slice(0, EDITS_KEPT)) });
}
