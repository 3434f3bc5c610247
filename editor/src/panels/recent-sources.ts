/**
 * The work survives a reload: every source opened is kept with its edits and undo steps
 * (source-store.ts), the latest is reopened on load, and the Recent list reopens or forgets others.
 */
import { byId, h } from '../dom.ts';
import type { Editor } from '../editor.ts';
import { HISTORY_LIMIT } from '../editor.ts';
import { openedAgo, sessionFrom, sourceId } from '../model/session.ts';
import { SourceStore } from '../io/source-store.ts';
import type { StoredSource } from '../io/source-store.ts';
import { bitmapSource } from '../render/sources.ts';
import type { Source } from '../render/sources.ts';
import { tweetSource } from '../render/tweet-card.ts';

/** Makes the source again from what was kept; a tweet's images come through the proxy again. */
async function sourceFrom(record: StoredSource, proxy: (url: string) => string): Promise<Source> {
  const { origin } = record;
  if (origin.kind === 'tweet') return (await tweetSource(origin.view, origin.theme, proxy)).source;
  return bitmapSource(origin.blob, {
    kind: record.kind,
    density: origin.density,
    title: record.title,
    description: record.description,
    address: origin.address,
  });
}

function recordOf(source: Source & { origin: NonNullable<Source['origin']> }, openedAt: number): StoredSource {
  const { kind, title, description, width, height, origin } = source;
  return { id: sourceId(source), kind, title, description, width, height, openedAt, origin };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The Recent list and the keeping of the open source's work as it changes. */
class RecentSources {
  private readonly box = byId('recent', HTMLDetailsElement);
  private readonly list = byId('recent-list', HTMLUListElement);
  private readonly count = byId('recent-count', HTMLSpanElement);
  private readonly status = byId('recent-status', HTMLParagraphElement);
  /** The source whose record is kept; changes to it are its session's. */
  private kept: Source | undefined;
  /** Sources removed from the list while open, or that could not be kept: not kept again. */
  private readonly forgotten = new WeakSet<Source>();
  private records: StoredSource[] = [];
  /** Writes run one after another, so a removal never races the write before it. */
  private chain = Promise.resolve();
  private sessionQueued = false;
  private readonly editor: Editor;
  private readonly store: SourceStore;

  constructor(editor: Editor, store: SourceStore) {
    this.editor = editor;
    this.store = store;
    editor.onChange(() => this.changed());
    this.list.addEventListener('click', (event) => this.clicked(event));
  }

  /** Shows the kept sources and reopens the latest, unless something was opened meanwhile. */
  async load(): Promise<void> {
    try {
      await this.refresh();
      const last = this.records[0];
      if (last && !this.editor.source) await this.reopen(last, true);
    } catch (error) {
      this.status.textContent = messageOf(error);
    } finally {
      // For whoever waits on the reload's reopening (the tests).
      this.box.dataset.loaded = 'true';
    }
  }

  /** A failed write says so and leaves the editor as it is. */
  private run(job: () => Promise<void>): void {
    this.chain = this.chain.then(job).catch((error: unknown) => {
      this.status.textContent = messageOf(error);
      this.box.open = true;
    });
  }

  private async refresh(): Promise<void> {
    this.records = await this.store.recent();
    this.render();
  }

  private render(): void {
    const now = Date.now();
    const source = this.editor.source;
    const current = source && !this.forgotten.has(source) ? sourceId(source) : undefined;
    this.count.textContent = this.records.length > 0 ? `(${this.records.length})` : '';
    this.list.replaceChildren(
      ...this.records.map((record) =>
        h(
          'li',
          { class: 'recent-item', 'data-id': record.id },
          h(
            'button',
            { type: 'button', class: 'recent-open', 'aria-current': record.id === current ? 'true' : false },
            h('span', { class: 'recent-name' }, record.description),
            h('span', { class: 'recent-when' }, openedAgo(record.openedAt, now)),
          ),
          h(
            'button',
            { type: 'button', class: 'recent-remove', 'aria-label': `Remove ${record.description} from recent sources`, title: 'Remove from recent sources' },
            '×',
          ),
        ),
      ),
    );
    if (this.records.length === 0) this.list.append(h('li', { class: 'note' }, 'Sources you open are kept here, in this browser.'));
  }

  /** A new source is kept; a change to the kept one is its session's. */
  private changed(): void {
    const source = this.editor.source;
    if (!source?.origin || this.forgotten.has(source)) return;
    if (source !== this.kept) {
      this.kept = source;
      const record = recordOf({ ...source, origin: source.origin }, Date.now());
      this.run(async () => {
        try {
          await this.store.add(record);
        } catch (error) {
          // Without its picture kept, its edits would be kept for nothing.
          this.forgotten.add(source);
          throw error;
        }
        await this.refresh();
      });
    }
    this.saveSession();
  }

  /** Coalesced: a burst of changes (a slider drag) is written once the write before is done. */
  private saveSession(): void {
    if (this.sessionQueued) return;
    this.sessionQueued = true;
    this.run(async () => {
      this.sessionQueued = false;
      const { source, revision } = this.editor;
      if (!source || source !== this.kept || this.forgotten.has(source)) return;
      await this.store.saveSession(sourceId(source), { edits: this.editor.edits, history: this.editor.history.state() });
      this.box.dataset.savedRevision = String(revision);
    });
  }

  private async reopen(record: StoredSource, onLoad: boolean): Promise<void> {
    const proxy = (url: string) => this.editor.api.url(`/api/image-proxy?url=${encodeURIComponent(url)}`);
    this.editor.busy(`Reopening ${record.title || record.description}…`);
    try {
      const [source, raw] = await Promise.all([sourceFrom(record, proxy), this.store.session(record.id)]);
      // Something opened while this loaded wins over the reload's reopening.
      if (onLoad && this.editor.source) return;
      this.kept = source;
      this.editor.setSource(source, sessionFrom(raw, HISTORY_LIMIT));
      if (record.origin.kind === 'bitmap' && record.origin.address) byId('capture-url', HTMLInputElement).value = record.origin.address;
      this.status.textContent = `Reopened ${record.description}.`;
      await this.store.touch(record.id, Date.now());
      await this.refresh();
    } catch (error) {
      this.status.textContent = `Could not reopen ${record.description}: ${messageOf(error)}`;
      this.box.open = true;
    } finally {
      this.editor.busy(undefined);
    }
  }

  private clicked(event: MouseEvent): void {
    const button = (event.target as Element).closest('button');
    const id = button?.closest<HTMLElement>('.recent-item')?.dataset.id;
    const record = this.records.find((entry) => entry.id === id);
    if (!button || !record) return;
    if (button.classList.contains('recent-open')) {
      void this.reopen(record, false);
      return;
    }
    const source = this.editor.source;
    if (source && sourceId(source) === id) this.forgotten.add(source);
    this.run(async () => {
      await this.store.remove(record.id);
      this.status.textContent = `Removed ${record.description} from this browser.`;
      await this.refresh();
      // The focus stays in the list rather than falling to the page.
      this.list.querySelector<HTMLButtonElement>('button')?.focus();
    });
  }
}

/** Wires the Recent list and keeps the open source's work as it changes. */
export function setupRecentSources(editor: Editor, store = new SourceStore()): void {
  void new RecentSources(editor, store).load();
}
