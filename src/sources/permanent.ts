/**
 * @module sources/permanent
 * Telling a failure that retrying cannot fix (no access, not found, over a size cap) from one it
 * may (network, 5xx, a deadline). Loaders throw {@link PermanentSourceError}; snapshots and
 * `resolve` report it as `permanent: true`, so a task fails at once instead of spending its retries.
 */

export class PermanentSourceError extends Error {
  override readonly name = 'PermanentSourceError';
}

/** HTTP statuses that mean "this will not work by asking again": auth, access, absence. */
export function isPermanentStatus(status: number): boolean {
  return status === 400 || status === 401 || status === 403 || status === 404 || status === 410 || status === 422;
}
