/**
 * @module sources/write-behind
 * A cache store whose writes a reader does not wait for: one assembly's reads put what they read
 * into the cache (sources/cached-json `cacheWrite`) and go on, and the assembly waits for the
 * writes once, at its end (`settled`). On a cold pull request assembly every tree, file and
 * read-ahead it fetched was a write it waited for before using what it had, one after another
 * (issue 56); now they run beside the rest of the assembly. A write that fails is what it always
 * was, a cache miss for a later reader: `settled` never rejects.
 *
 * @example
 * const cache = writeBehind(env.CACHE);
 * const turn = await assemble({ cache, ... });
 * await cache.settled();
 */
import type { KeyValueStore } from './key-value-store.ts';

export interface WriteBehindStore extends KeyValueStore {
  defer(write: Promise<unknown>): void;
  /** Resolves once every write deferred so far (and any deferred while waiting) is done. */
  settled(): Promise<void>;
}

export function writeBehind(store: KeyValueStore): WriteBehindStore {
  const pending = new Set<Promise<unknown>>();
  return {
    get: (key, type) => store.get(key, type),
    put: (key, value, options) => store.put(key, value, options),
    defer(write) {
      const tracked = write.catch(() => undefined).finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
