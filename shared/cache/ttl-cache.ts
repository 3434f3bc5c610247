/**
 * A small in-memory cache with a lifetime per entry and least-recently-used eviction, for values
 * a warm Lambda container may reuse across invocations (verified credentials, found tweets).
 * A Map keeps insertion order, so re-inserting on read makes its first key the least recently used.
 */
export interface TtlCacheOptions {
  /** Lifetime of an entry in milliseconds; 0 keeps nothing. */
  ttlMs: number;
  /** How many entries to keep; the least recently used goes first. */
  maxEntries: number;
  /** Clock in milliseconds, replaceable in tests. */
  now?: () => number;
}

export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: TtlCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries;
    this.now = options.now ?? Date.now;
  }

  /** The live value, or undefined (cache a `null` to remember that something is absent). */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
