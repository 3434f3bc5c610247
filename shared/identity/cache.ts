/**
 * A small in-container cache with a time-to-live and a size bound. Credential lookups go
 * through it so a warm Lambda verifies a repeat caller without reading the table, while a
 * revocation still takes effect within the TTL.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  /**
   * @param ttlMs how long an entry is served; 0 disables caching
   * @param maxEntries the oldest entry is dropped beyond this
   * @param now clock in milliseconds (tests pass their own)
   */
  constructor(ttlMs: number, maxEntries = 1000, now: () => number = Date.now) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.now = now;
  }

  /** The live value, or undefined (cache a `null` to remember that something is absent). */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
