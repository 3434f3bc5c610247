/** Undo and redo over immutable snapshots; a run of changes under one merge key (a slider drag) is one step. */

/** A pause longer than this ends a merged run. */
const MERGE_WINDOW_MS = 1000;

/** The steps as plain data, to keep across a reload; an open merged run is not kept. */
export interface HistoryState<T> {
  past: T[];
  future: T[];
}

export class History<T> {
  private past: T[] = [];
  private future: T[] = [];
  private mergeKey: string | undefined;
  private mergedAt = 0;

  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get undoSteps(): number {
    return this.past.length;
  }

  get redoSteps(): number {
    return this.future.length;
  }

  /** Call before a change, with the state it replaces. */
  record(previous: T, merge?: string, now = Date.now()): void {
    const continuing = merge !== undefined && merge === this.mergeKey && now - this.mergedAt < MERGE_WINDOW_MS;
    this.mergeKey = merge;
    this.mergedAt = now;
    if (continuing) return;
    this.past.push(previous);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
  }

  /** The state to go back to, or undefined when there is none. */
  undo(current: T): T | undefined {
    const previous = this.past.pop();
    if (previous === undefined) return undefined;
    this.future.push(current);
    this.mergeKey = undefined;
    return previous;
  }

  redo(current: T): T | undefined {
    const next = this.future.pop();
    if (next === undefined) return undefined;
    this.past.push(current);
    this.mergeKey = undefined;
    return next;
  }

  /** Copies, so later steps do not change what was handed out. */
  state(): HistoryState<T> {
    return { past: [...this.past], future: [...this.future] };
  }

  /** Puts back kept steps; beyond the limit, the oldest undo steps and the farthest redo steps go. */
  restore(state: HistoryState<T>): void {
    this.past = state.past.slice(-this.limit);
    this.future = state.future.slice(-this.limit);
    this.mergeKey = undefined;
  }

  clear(): void {
    this.past = [];
    this.future = [];
    this.mergeKey = undefined;
  }
}
