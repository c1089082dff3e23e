/**
 * @module sources/key-value-store
 * The slice of Workers KV that caches use. `KVNamespace` satisfies it structurally, so this code
 * also runs in Node (CLI) with any map-backed store.
 */
export interface KeyValueStore {
  get(key: string, type: 'text'): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
}
