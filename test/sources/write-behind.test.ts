/**
 * A task's cache writes go behind its reads (sources/write-behind): a read-through returns what it
 * read without waiting for the store, an installation token is used before it is sealed and
 * stored, and the task waits for all of it once (`settled`); a held store starts them only then. A store without write-behind is
 * written before the read returns, as before. Writes are held open by the test, never timed.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cachedJson, type KeyValueStore } from '../../src/sources/cached-json.ts';
import { createTokenCache } from '../../src/sources/github/token-cache.ts';
import { writeBehind } from '../../src/sources/write-behind.ts';

/** A store whose puts stay pending until the test lets them through (or fails them). */
function heldStore(): KeyValueStore & { values: Map<string, string>; pending(): number; release(fail?: boolean): void } {
  const values = new Map<string, string>();
  const held: Array<{ key: string; value: string; resolve(): void; reject(error: Error): void }> = [];
  return {
    values,
    get: async (key) => values.get(key) ?? null,
    put: (key, value) => new Promise<void>((resolve, reject) => held.push({ key, value, resolve, reject })),
    pending: () => held.length,
    release(fail = false) {
      for (const write of held.splice(0)) {
        if (fail) write.reject(new Error('the store is down'));
        else {
          values.set(write.key, write.value);
          write.resolve();
        }
      }
    },
  };
}

const schema = z.object({ files: z.array(z.string()) });
const settledYet = async (promise: Promise<unknown>): Promise<boolean> => Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 0))]);

describe('cache writes behind a task\'s reads', () => {
  it('returns what it computed while the store is still writing it, and settles once the write is done', async () => {
    const store = heldStore();
    const cache = writeBehind(store);
    const value = await cachedJson(cache, ['gw', 'test', 'a'], schema, async () => ({ files: ['AGENTS.md'] }));
    expect(value).toEqual({ files: ['AGENTS.md'] });
    expect(store.pending()).toBe(1);
    const settled = cache.settled();
    expect(await settledYet(settled)).toBe(false);
    store.release();
    await settled;
    expect([...store.values.values()]).toEqual(['{"files":["AGENTS.md"]}']);
    // The next reader finds it: no compute.
    expect(await cachedJson(cache, ['gw', 'test', 'a'], schema, async () => ({ files: ['other'] }))).toEqual({ files: ['AGENTS.md'] });
  });

  it('held, starts no write (the token\'s neither) until settled is asked, then starts them all and waits for them', async () => {
    const store = heldStore();
    const cache = writeBehind(store, { hold: true });
    const tokens = writeBehind(store, { hold: true });
    await cachedJson(cache, ['gw', 'test', 'held-1'], schema, async () => ({ files: ['a'] }));
    await cachedJson(cache, ['gw', 'test', 'held-2'], schema, async () => ({ files: ['b'] }));
    const value = `ghs_held|${new Date().toISOString()}|${new Date(Date.now() + 3_600_000).toISOString()}|all||`;
    await createTokenCache({ store: tokens, scope: 'https://api.github.test 1', secret: 'an App key', memory: new Map() }).set('4243', value);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.pending()).toBe(0);
    const settled = Promise.all([cache.settled(), tokens.settled()]);
    while (store.pending() < 3) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await settledYet(settled)).toBe(false);
    store.release();
    await settled;
    expect(store.values.size).toBe(3);
    // Released: a write deferred from now on starts at once.
    await cachedJson(cache, ['gw', 'test', 'held-3'], schema, async () => ({ files: ['c'] }));
    expect(store.pending()).toBe(1);
    store.release();
    await cache.settled();
  });

  it('stops waiting at its deadline for a store that does not answer, the write still pending', async () => {
    const store = heldStore();
    const cache = writeBehind(store, { hold: true });
    await cachedJson(cache, ['gw', 'test', 'stuck'], schema, async () => ({ files: ['a'] }));
    await cache.settled({ deadlineMs: 1 });
    // Started, never answered: the wait ended without it, and nothing was stored.
    expect(store.pending()).toBe(1);
    expect(store.values.size).toBe(0);
    store.release();
    await cache.settled();
    expect(store.values.size).toBe(1);
  });

  it('settles when a write fails, leaving a miss for the next reader', async () => {
    const store = heldStore();
    const cache = writeBehind(store);
    await cachedJson(cache, ['gw', 'test', 'b'], schema, async () => ({ files: [] }));
    store.release(true);
    await cache.settled();
    expect(store.values.size).toBe(0);
  });

  it('writes before returning when the store does not write behind', async () => {
    const store = heldStore();
    const read = cachedJson(store, ['gw', 'test', 'c'], schema, async () => ({ files: ['x'] }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await settledYet(read)).toBe(false);
    store.release();
    expect(await read).toEqual({ files: ['x'] });
    expect(store.values.size).toBe(1);
  });

  it('hands out a minted installation token before it is sealed and stored, and stores it by settled', async () => {
    const store = heldStore();
    const tokens = writeBehind(store);
    const value = `ghs_abc|${new Date().toISOString()}|${new Date(Date.now() + 3_600_000).toISOString()}|all||`;
    const cache = createTokenCache({ store: tokens, scope: 'https://api.github.test 1', secret: 'an App key', memory: new Map() });
    await cache.set('4242', value);
    expect(await cache.get('4242')).toBe(value);
    // Sealing is asynchronous: wait for the put it leads to, then let it through.
    while (store.pending() === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    store.release();
    await tokens.settled();
    expect(store.values.size).toBe(1);
    expect([...store.values.values()][0]).not.toContain('ghs_abc');
    const another = createTokenCache({ store, scope: 'https://api.github.test 1', secret: 'an App key', memory: new Map() });
    expect(await another.get('4242')).toBe(value);
  });
});
