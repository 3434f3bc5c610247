/**
 * Recent sources and their work in this browser's IndexedDB, through `idb`: what each source is
 * made from (its picture or tweet) in one store, its edits and undo steps in another, so the
 * frequent session writes never copy the picture again.
 */
import { openDB } from 'idb';
import type { DBSchema, IDBPDatabase } from 'idb';
import { keepRecent, RECENT_LIMIT } from '../model/session.ts';
import type { Session } from '../model/session.ts';
import type { Source, SourceOrigin } from '../render/sources.ts';

export interface StoredSource {
  /** {@link sourceId} of the source. */
  id: string;
  kind: Source['kind'];
  title: string;
  description: string;
  width: number;
  height: number;
  /** Milliseconds since the epoch; the newest is reopened on load. */
  openedAt: number;
  origin: SourceOrigin;
}

interface Schema extends DBSchema {
  sources: { key: string; value: StoredSource };
  sessions: { key: string; value: Session & { id: string } };
}

const DB_NAME = 'easel.editor.sources';

/** The browser refused to keep something; the editor goes on without it. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
}

function isQuota(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'QuotaExceededError';
}

export class SourceStore {
  private database: Promise<IDBPDatabase<Schema>> | undefined;

  private db(): Promise<IDBPDatabase<Schema>> {
    this.database ??= openDB<Schema>(DB_NAME, 1, {
      upgrade(db) {
        db.createObjectStore('sources', { keyPath: 'id' });
        db.createObjectStore('sessions', { keyPath: 'id' });
      },
    }).catch((error: unknown) => {
      // A later call tries again (storage switched back on, another tab's upgrade done).
      this.database = undefined;
      throw new StorageError('This browser does not let the editor keep anything (private window or storage switched off).', { cause: error });
    });
    return this.database;
  }

  /** Newest first. */
  async recent(): Promise<StoredSource[]> {
    const all = await (await this.db()).getAll('sources');
    return keepRecent(
      all.filter((record) => record.origin !== undefined),
      Number.MAX_SAFE_INTEGER,
    ).kept;
  }

  async session(id: string): Promise<unknown> {
    return (await this.db()).get('sessions', id);
  }

  /**
   * Keeps a source, dropping the oldest past the limit. When the browser is out of room, the other
   * sources go first and it is tried once more.
   * @throws StorageError when it still does not fit
   */
  async add(record: StoredSource, limit: number = RECENT_LIMIT): Promise<void> {
    const db = await this.db();
    try {
      await db.put('sources', record);
    } catch (error) {
      if (!isQuota(error)) throw new StorageError('The browser refused to keep this source.', { cause: error });
      for (const other of await db.getAllKeys('sources')) if (other !== record.id) await this.remove(other);
      await db.put('sources', record).catch((again: unknown) => {
        throw new StorageError('This browser has no room left to keep the picture: it stays open until you reload.', { cause: again });
      });
    }
    const { dropped } = keepRecent(await db.getAll('sources'), limit);
    for (const old of dropped) await this.remove(old.id);
  }

  /** Marks a source as the latest opened. */
  async touch(id: string, openedAt: number): Promise<void> {
    const db = await this.db();
    const record = await db.get('sources', id);
    if (record) await db.put('sources', { ...record, openedAt });
  }

  /** @throws StorageError when the browser refuses it */
  async saveSession(id: string, session: Session): Promise<void> {
    try {
      await (await this.db()).put('sessions', { id, edits: session.edits, history: session.history });
    } catch (error) {
      throw error instanceof StorageError
        ? error
        : new StorageError(isQuota(error) ? 'This browser has no room left to keep your undo steps.' : 'The browser refused to keep your edits.', {
            cause: error,
          });
    }
  }

  async remove(id: string): Promise<void> {
    const transaction = (await this.db()).transaction(['sources', 'sessions'], 'readwrite');
    await Promise.all([transaction.objectStore('sources').delete(id), transaction.objectStore('sessions').delete(id), transaction.done]);
  }
}
