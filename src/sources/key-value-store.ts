/**
 * @module sources/key-value-store
 * The slice of Workers KV that caches use. `KVNamespace` satisfies it structurally, so this code
 * also runs in Node (CLI) with any map-backed store.
 */
export interface KeyValueStore {
  get(key: string, type: 'text'): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
  /**
   * A store that lets a reader go on before a cache write is done takes the write here, to start
   * now or later (see sources/write-behind); without it, the cache writes where it read, as the
   * read's last step.
   */
  defer?(write: () => Promise<unknown>): void;
}
