/**
 * @module sources/cache-key
 * Cache keys from parts (namespace, repository identity, commit or oid, schema version). Keys
 * stay readable when they fit and become a SHA-256 digest when they would not, because KV
 * rejects keys over 512 bytes and a repository URL or local path can be arbitrarily long.
 */

import { sha256Hex } from '../lib/sha256.ts';

/** Workers KV's maximum key length in bytes. */
export const MAX_KEY_BYTES = 512;

/** A namespace longer than this is dropped from hashed keys rather than eat the budget. */
const MAX_PREFIX_CHARS = 64;

/**
 * Joins URI-encoded parts with `:`. Encoding makes the join unambiguous (a part cannot contain
 * a bare `:`) and ASCII-only, so the string length is the byte length. Hashed keys carry `#`,
 * which an encoded part never contains, so they cannot collide with readable ones.
 *
 * @example
 * await cacheKey(['gw', 'tree', 'v1', 'https://git.example.com/app.git', commit])
 * // 'gw:tree:v1:https%3A%2F%2Fgit.example.com%2Fapp.git:0123…'
 */
export async function cacheKey(parts: readonly string[]): Promise<string> {
  const encoded = parts.map((part) => encodeURIComponent(part));
  const readable = encoded.join(':');
  if (readable.length <= MAX_KEY_BYTES) return readable;
  const prefix = encoded[0] !== undefined && encoded[0].length <= MAX_PREFIX_CHARS ? `${encoded[0]}:` : '';
  return `${prefix}#sha256:${await sha256Hex(readable)}`;
}
