/**
 * A source's work as kept across reloads (edits and undo steps), checked as it is read back, and
 * which sources the recent list keeps. Pure: the storage itself is source-store.ts.
 */
import { editsFrom } from './edits.ts';
import type { Edits } from './edits.ts';
import type { HistoryState } from './history.ts';
import { settingsFromStored } from './settings.ts';
import type { Settings } from './settings.ts';

/** An undo step: the editor's Snapshot, declared here so this stays free of the DOM. */
export interface Snapshot {
  settings: Settings;
  edits: Edits;
}

/** Sources kept to reopen; the oldest goes when one more is opened. */
export const RECENT_LIMIT = 8;

export interface Session {
  edits: Edits;
  history: HistoryState<Snapshot>;
}

/** What a source is made from, as far as naming it goes. */
interface Named {
  kind: string;
  description: string;
  width: number;
  height: number;
  origin?: { kind: string; view?: { id: string } };
}

/**
 * What names a source in the list: opening the same page, tweet or file again replaces its entry.
 * A tweet is one source in either theme, which recolours the same card (its layout, and so its
 * annotations, stay); a page captured in another scheme is another picture, drawn by the site.
 */
export function sourceId(source: Named): string {
  if (source.origin?.kind === 'tweet' && source.origin.view) return `tweet|${source.origin.view.id}`;
  return `${source.kind}|${source.description}|${source.width}x${source.height}`;
}

export function snapshotFrom(raw: unknown): Snapshot | undefined {
  const snapshot = raw as { settings?: unknown; edits?: unknown } | null;
  if (typeof snapshot !== 'object' || snapshot === null || typeof snapshot.settings !== 'object' || snapshot.settings === null) return undefined;
  const edits = editsFrom(snapshot.edits);
  return edits ? { settings: settingsFromStored(snapshot.settings), edits } : undefined;
}

function snapshotsFrom(raw: unknown, limit: number): Snapshot[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .map(snapshotFrom)
    .filter((snapshot) => snapshot !== undefined)
    .slice(-limit);
}

/**
 * A kept session, or undefined when there is none to read. A step that no longer reads is left
 * out rather than losing the rest.
 */
export function sessionFrom(raw: unknown, limit: number): Session | undefined {
  const session = raw as { edits?: unknown; history?: { past?: unknown; future?: unknown } } | null;
  if (typeof session !== 'object' || session === null) return undefined;
  const edits = editsFrom(session.edits);
  if (!edits) return undefined;
  return { edits, history: { past: snapshotsFrom(session.history?.past, limit), future: snapshotsFrom(session.history?.future, limit) } };
}

/** Newest first; what is past the limit is to be deleted. */
export function keepRecent<T extends { id: string; openedAt: number }>(records: readonly T[], limit: number = RECENT_LIMIT): { kept: T[]; dropped: T[] } {
  const sorted = [...records].sort((a, b) => b.openedAt - a.openedAt);
  return { kept: sorted.slice(0, limit), dropped: sorted.slice(limit) };
}

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago". */
export function openedAgo(openedAt: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - openedAt) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? 'yesterday' : `${days} days ago`;
}
