/**
 * The document the editor changes: settings, edits and their undo history, with a gesture's
 * draft. No DOM: editor.ts stores, draws and announces what this decides, and Node tests it.
 */
import type { Edits } from './edits.ts';
import { NO_EDITS } from './edits.ts';
import { History } from './history.ts';
import { samePicture, withExportSettings } from './settings.ts';
import type { Settings } from './settings.ts';

/** What undo goes back to. */
export interface Snapshot {
  settings: Settings;
  edits: Edits;
}

export class DocumentModel {
  readonly history: History<Snapshot>;
  private state: Snapshot;
  /** The edits a gesture's draft replaced, while one is shown. */
  private draftBase: Edits | undefined;

  /** The clock merged runs are timed by; tests pass their own. */
  private readonly now: () => number;

  constructor(settings: Settings, limit: number, now: () => number = Date.now) {
    this.history = new History<Snapshot>(limit);
    this.state = { settings, edits: NO_EDITS };
    this.now = now;
  }

  get settings(): Settings {
    return this.state.settings;
  }

  get edits(): Edits {
    return this.state.edits;
  }

  snapshot(): Snapshot {
    return this.state;
  }

  /** Another source's document: its edits, with a history of its own. */
  open(edits: Edits): void {
    this.draftBase = undefined;
    this.state = { ...this.state, edits };
    this.history.clear();
  }

  /**
   * One undo step, or part of the run under `merge` (a slider drag, a run of nudges). A change of
   * export settings alone is none, and leaves the redo steps: it edits no part of the picture.
   */
  update(settings: Partial<Settings>, merge?: string): Snapshot {
    const next = { ...this.state.settings, ...settings };
    if (samePicture(next, this.state.settings)) {
      this.state = { ...this.state, settings: next };
      return this.state;
    }
    return this.record({ settings: next, edits: this.state.edits }, merge);
  }

  edit(edits: Partial<Edits>, merge?: string): Snapshot {
    return this.record({ settings: this.state.settings, edits: { ...this.state.edits, ...edits } }, merge);
  }

  private record(next: Snapshot, merge?: string): Snapshot {
    this.history.record(this.state, merge, this.now());
    this.state = next;
    return next;
  }

  /** The state gone back to (with today's export settings), or undefined when there is no step. */
  undo(): Snapshot | undefined {
    return this.travel(this.history.undo(this.state));
  }

  redo(): Snapshot | undefined {
    return this.travel(this.history.redo(this.state));
  }

  private travel(step: Snapshot | undefined): Snapshot | undefined {
    if (step) this.state = { ...step, settings: withExportSettings(step.settings, this.state.settings) };
    return step && this.state;
  }

  /** Shows a gesture's edits without an undo step. */
  draft(edits: Edits): void {
    this.draftBase ??= this.state.edits;
    this.state = { ...this.state, edits };
  }

  /**
   * Ends the draft: one undo step for the whole gesture when `keep` and it changed anything.
   * Returns the state before the gesture when it recorded that step.
   */
  endDraft(keep: boolean): Snapshot | undefined {
    const base = this.draftBase;
    if (base === undefined) return undefined;
    this.draftBase = undefined;
    const drafted = this.state.edits;
    this.state = { ...this.state, edits: base };
    if (!keep || drafted === base) return undefined;
    const before = this.state;
    this.edit(drafted);
    return before;
  }
}
