/**
 * @module lib/byte-lru
 * A map that keeps the most recently used values up to a total size: for caches a long-lived
 * process keeps (the local MCP server's git objects), where a count bound says nothing about
 * memory. A value larger than a quarter of the bound is not kept at all, so one huge value
 * never empties the cache of everything else.
 *
 * @example
 * const blobs = byteLru<Uint8Array>(16 * 1024 * 1024, (data) => data.byteLength);
 * blobs.set(oid, data);
 * blobs.get(oid); // data, now the most recently used
 */

export interface ByteLru<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  /** The total size of what is kept. */
  readonly bytes: number;
  readonly size: number;
}

export function byteLru<K, V>(maxBytes: number, sizeOf: (value: V) => number): ByteLru<K, V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<K, { value: V; bytes: number }>();
  let total = 0;
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      const bytes = Math.max(1, sizeOf(value));
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        total -= old.bytes;
      }
      if (bytes > maxBytes / 4) return;
      entries.set(key, { value, bytes });
      total += bytes;
      for (const [oldest, entry] of entries) {
        if (total <= maxBytes) break;
        entries.delete(oldest);
        total -= entry.bytes;
      }
    },
    get bytes() {
      return total;
    },
    get size() {
      return entries.size;
    },
  };
}
