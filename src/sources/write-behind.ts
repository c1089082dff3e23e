/**
 * @module sources/write-behind
 * A cache store whose writes a reader does not wait for: one assembly's reads put what they read
 * into the cache (sources/cached-json `cacheWrite`) and go on, and the assembly waits for the
 * writes once, at its end (`settled`). On a cold pull request assembly every tree, file and
 * read-ahead it fetched was a write it waited for before using what it had, one after another
 * (issue 56); now they run beside the rest of the assembly. A write that fails is what it always
 * was, a cache miss for a later reader: `settled` never rejects.
 *
 * `hold`: no write starts before `settled` is first asked. An assembly's writes (thirty on a cold
 * first turn: the read-ahead, each of its blobs, the installation token) then do not keep the
 * store busy while the same assembly waits on its reads (the skills index, another object's
 * answer), which they did; the host asks `settled` once the turn is stored and reported. Only for
 * a reader that always asks it: a write never asked for is never made.
 *
 * @example
 * const cache = writeBehind(env.CACHE, { hold: true });
 * const turn = await assemble({ cache, ... });
 * await report(turn);
 * await cache.settled();
 */
import { untilAborted } from '../lib/abortable.ts';
import type { KeyValueStore } from './key-value-store.ts';

export interface WriteBehindStore extends KeyValueStore {
  defer(write: () => Promise<unknown>): void;
  /**
   * Starts any held writes; resolves once every write deferred so far (and any deferred while
   * waiting) is done, or after `deadlineMs` with some still running (they are only a cache).
   */
  settled(options?: { deadlineMs?: number }): Promise<void>;
}

export interface WriteBehindOptions {
  /** Start no write until `settled` is first asked (see the module's comment). */
  hold?: boolean;
}

export function writeBehind(store: KeyValueStore, options: WriteBehindOptions = {}): WriteBehindStore {
  const pending = new Set<Promise<unknown>>();
  let held: Array<() => Promise<unknown>> | undefined = options.hold ? [] : undefined;
  const start = (write: () => Promise<unknown>): void => {
    const tracked = (async () => write())().catch(() => undefined).finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  return {
    get: (key, type) => store.get(key, type),
    put: (key, value, options) => store.put(key, value, options),
    defer(write) {
      if (held) held.push(write);
      else start(write);
    },
    async settled({ deadlineMs } = {}) {
      const released = held ?? [];
      held = undefined;
      for (const write of released) start(write);
      const done = (async () => {
        while (pending.size > 0) await Promise.all(pending);
      })();
      // At the deadline the wait ends; the writes still running are left to land or not.
      if (deadlineMs !== undefined) await untilAborted(done, AbortSignal.timeout(deadlineMs)).catch(() => undefined);
      else await done;
    },
  };
}
