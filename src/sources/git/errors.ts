/**
 * @module sources/git/errors
 * Reading isomorphic-git's and Node's errors by their `code`, which survives bundling and
 * duplicate module copies where `instanceof` does not.
 */

/** Error codes isomorphic-git sets on its errors (`NotFoundError`, `AmbiguousError`, ...). */
export function gitErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
