/**
 * The work survives a reload: every source opened is kept with its edits and undo steps
 * (source-store.ts), the latest is reopened on load, and the Recent list reopens or forgets others.
 */
import { byId, h } from './dom.ts';
import type { Editor } from './editor.ts';
import { HISTORY_LIMIT } from './editor.ts';
import { openedAgo, sessionFrom, sourceId } from './session.ts';
import { SourceStore } from './source-store.ts';
import type { StoredSource } from './source-store.ts';
import { bitmapSource } from './sources.ts';
import type { Source } from './sources.ts';
import { tweetSource } from './tweet-card.ts';

/** Makes the source again from what was kept; a tweet's images come through the proxy again. */
async function sourceFrom(record: StoredSource, proxy: (url: string) => string): Promise<Source> {
  const { origin } = record;
  if (origin.kind === 'tweet') return (await tweetSource(origin.view, origin.theme, proxy)).source;
  return bitmapSource(origin.blob, { kind: record.kind, density: origin.density, title: record.title, description: record.description, address: origin.address });
}

function recordOf(source: Source & { origin: NonNullable<Source['origin']> }, openedAt: number): StoredSource {
  const { kind, title, description, width, height, origin } = source;
  return { id: sourceId(source), kind, title, description, width, height, openedAt, origin };
}

/** Wires the Recent list and keeps the open source's work as it changes. */
export function setupRecentSources(editor: Editor, store = new SourceStore()): void {
  const box = byId('recent', HTMLDetailsElement);
  const list = byId('recent-list', HTMLUListElement);
  const count = byId('recent-count', HTMLSpanElement);
  const status = byId('recent-status', HTMLParagraphElement);
  const proxy = (url: string) => editor.api.url(`/api/image-proxy?url=${encodeURIComponent(url)}`);
  /** The source whose record is kept; changes to it are its session's. */
  let kept: Source | undefined;
  /** Sources removed from the list while open: not kept again. */
  const forgotten = new WeakSet<Source>();
  let records: StoredSource[] = [];

  // Writes run one after another; a failed one says so and leaves the editor as it is.
  let chain = Promise.resolve();
  const run = (job: () => Promise<void>) => {
    chain = chain.then(job).catch((error: unknown) => {
      status.textContent = error instanceof Error ? error.message : String(error);
      box.open = true;
    });
    return chain;
  };

  const render = () => {
    const now = Date.now();
    const current = editor.source && !forgotten.has(editor.source) ? sourceId(editor.source) : undefined;
    count.textContent = records.length > 0 ? `(${records.length})` : '';
    list.replaceChildren(
      ...records.map((record) =>
        h(
          'li',
          { class: 'recent-item', 'data-id': record.id },
          h('button', { type: 'button', class: 'recent-open', 'aria-current': record.id === current ? 'true' : false }, h('span', { class: 'recent-name' }, record.description), h('span', { class: 'recent-when' }, openedAgo(record.openedAt, now))),
          h('button', { type: 'button', class: 'recent-remove', 'aria-label': `Remove ${record.description} from recent sources`, title: 'Remove from recent sources' }, '×'),
        ),
      ),
    );
    if (records.length === 0) list.append(h('li', { class: 'note' }, 'Sources you open are kept here, in this browser.'));
  };
  const refresh = async () => {
    records = await store.recent();
    render();
  };

  // Coalesced: a burst of changes (a slider drag) writes the state once the write before is done.
  let sessionQueued = false;
  const saveSession = () => {
    if (sessionQueued) return;
    sessionQueued = true;
    void run(async () => {
      sessionQueued = false;
      const source = editor.source;
      if (!source || source !== kept || forgotten.has(source)) return;
      const revision = editor.revision;
      await store.saveSession(sourceId(source), { edits: editor.edits, history: editor.history.state() });
      box.dataset.savedRevision = String(revision);
    });
  };

  const reopen = async (record: StoredSource, onLoad: boolean) => {
    editor.busy(`Reopening ${record.title || record.description}…`);
    try {
      const [source, raw] = await Promise.all([sourceFrom(record, proxy), store.session(record.id)]);
      // Something opened while this loaded wins over the reload's reopening.
      if (onLoad && editor.source) return;
      kept = source;
      editor.setSource(source, sessionFrom(raw, HISTORY_LIMIT));
      if (record.origin.kind === 'bitmap' && record.origin.address) byId('capture-url', HTMLInputElement).value = record.origin.address;
      status.textContent = `Reopened ${record.description}.`;
      await store.touch(record.id, Date.now());
      await refresh();
    } catch (error) {
      status.textContent = `Could not reopen ${record.description}: ${error instanceof Error ? error.message : String(error)}`;
      box.open = true;
    } finally {
      editor.busy(undefined);
    }
  };

  editor.onChange(() => {
    const source = editor.source;
    if (!source?.origin || forgotten.has(source)) return;
    if (source === kept) {
      saveSession();
      return;
    }
    kept = source;
    const record = recordOf({ ...source, origin: source.origin }, Date.now());
    void run(async () => {
      try {
        await store.add(record);
      } catch (error) {
        // Without its picture kept, its edits would be kept for nothing.
        forgotten.add(source);
        throw error;
      }
      await refresh();
    });
    saveSession();
  });

  list.addEventListener('click', (event) => {
    const button = (event.target as Element).closest('button');
    const id = button?.closest<HTMLElement>('.recent-item')?.dataset.id;
    const record = records.find((entry) => entry.id === id);
    if (!button || !record) return;
    if (button.classList.contains('recent-open')) {
      void reopen(record, false);
      return;
    }
    if (editor.source && sourceId(editor.source) === id) forgotten.add(editor.source);
    void run(async () => {
      await store.remove(record.id);
      status.textContent = `Removed ${record.description} from this browser.`;
      await refresh();
      // The focus stays in the list rather than falling to the page.
      list.querySelector<HTMLButtonElement>('button')?.focus();
    });
  });

  void (async () => {
    try {
      await refresh();
      const last = records[0];
      if (last && !editor.source) await reopen(last, true);
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      // For whoever waits on the reload's reopening (the tests).
      box.dataset.loaded = 'true';
    }
  })();
}
