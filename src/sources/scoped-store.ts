/**
 * @module sources/scoped-store
 * A KeyValueStore whose keys live under one access scope. Cached trees, blobs and skill indexes
 * are keyed by repository and commit, which a caller can name without being able to read them:
 * a commit id needs no request to "resolve", so an unscoped cache would hand a private
 * repository's files to anyone who knows a commit. Scoping by the credential that read them
 * (an App installation, a token, the credentials of a git URL) keeps reuse inside one access.
 */
import { sha256Hex } from '../lib/sha256.ts';
import { MAX_KEY_BYTES } from './cache-key.ts';
import type { KeyValueStore } from './key-value-store.ts';

/**
 * @example
 * const cache = scopeStore(env.CACHE, 'github-installation:4242');
 * await cache.put('gw:tree:v1:…', value); // stored as 's:<16 hex of the scope>:gw:tree:v1:…'
 */
export function scopeStore(store: KeyValueStore, scope: string): KeyValueStore {
  const prefix = sha256Hex(scope).then((hex) => `s:${hex.slice(0, 16)}:`);
  const scoped = async (key: string): Promise<string> => {
    const head = await prefix;
    // Keys are ASCII (cacheKey encodes its parts), so length is the byte length.
    return head.length + key.length <= MAX_KEY_BYTES ? `${head}${key}` : `${head}#sha256:${await sha256Hex(key)}`;
  };
  return {
    get: async (key, type) => store.get(await scoped(key), type),
    put: async (key, value, options) => store.put(await scoped(key), value, options),
    ...(store.defer ? { defer: store.defer.bind(store) } : {}),
  };
}
