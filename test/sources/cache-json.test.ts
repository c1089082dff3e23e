import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cacheKey, MAX_KEY_BYTES } from '../../src/sources/cache-key.ts';
import { cachedJson, type KeyValueStore } from '../../src/sources/cached-json.ts';

const indexSchema = z.object({ version: z.literal(2), skills: z.array(z.string()) });
type SkillIndex = z.infer<typeof indexSchema>;

function counted(value: SkillIndex): { compute: () => Promise<SkillIndex>; calls: () => number } {
  let calls = 0;
  return { compute: async () => (calls++, value), calls: () => calls };
}

describe('cachedJson', () => {
  const parts = (config: string) => ['gw', 'skills', 'v2', `https://git.example.test/cache-json-${Date.now()}.git`, 'a'.repeat(40), config];

  it('computes once per key and serves the stored value afterwards', async () => {
    const keyParts = parts('config-1');
    const index = counted({ version: 2, skills: ['review'] });
    expect(await cachedJson(env.CACHE, keyParts, indexSchema, index.compute)).toEqual({ version: 2, skills: ['review'] });
    expect(await cachedJson(env.CACHE, keyParts, indexSchema, index.compute)).toEqual({ version: 2, skills: ['review'] });
    expect(index.calls()).toBe(1);
  });

  it('treats a different config as a different key', async () => {
    const index = counted({ version: 2, skills: [] });
    await cachedJson(env.CACHE, parts('config-a'), indexSchema, index.compute);
    await cachedJson(env.CACHE, parts('config-b'), indexSchema, index.compute);
    expect(index.calls()).toBe(2);
  });

  it('recomputes and rewrites a value stored under an older schema', async () => {
    const keyParts = parts('config-old');
    await env.CACHE.put(await cacheKey(keyParts), JSON.stringify({ version: 1, skills: 'review' }));
    const index = counted({ version: 2, skills: ['review'] });
    expect(await cachedJson(env.CACHE, keyParts, indexSchema, index.compute)).toEqual({ version: 2, skills: ['review'] });
    expect(index.calls()).toBe(1);
    expect(await env.CACHE.get(await cacheKey(keyParts), 'text')).toBe('{"version":2,"skills":["review"]}');
  });

  it('returns but does not store a value over the size cap', async () => {
    const puts: string[] = [];
    const store: KeyValueStore = { get: async () => null, put: async (key) => void puts.push(key) };
    const index = counted({ version: 2, skills: ['x'.repeat(200)] });
    expect(await cachedJson(store, parts('big'), indexSchema, index.compute, { maxValueBytes: 100 })).toMatchObject({ version: 2 });
    expect(puts).toEqual([]);
  });
});

describe('cacheKey', () => {
  it('keeps short keys readable and unambiguous', async () => {
    expect(await cacheKey(['gw', 'tree', 'v1', 'https://h/r.git', 'abc'])).toBe('gw:tree:v1:https%3A%2F%2Fh%2Fr.git:abc');
    expect(await cacheKey(['a:b', 'c'])).not.toBe(await cacheKey(['a', 'b:c']));
  });

  it('hashes keys that would exceed 512 bytes, deterministically and distinctly', async () => {
    const long = (tail: string) => ['gw', 'tree', 'v1', `https://h/${'é'.repeat(400)}.git`, tail];
    const first = await cacheKey(long('1'));
    expect(first).toMatch(/^gw:#sha256:[0-9a-f]{64}$/);
    expect(new TextEncoder().encode(first).byteLength).toBeLessThanOrEqual(MAX_KEY_BYTES);
    expect(await cacheKey(long('1'))).toBe(first);
    expect(await cacheKey(long('2'))).not.toBe(first);
  });
});
