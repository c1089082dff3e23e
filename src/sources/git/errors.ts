/**
 * @module sources/git/errors
 * Reading Node's errors by their `code` (ENOENT, ENOTDIR, ...), which survives bundling and
 * duplicate module copies where `instanceof` does not.
 */

/** The `code` an error carries (Node's fs errors: `ENOENT`, ...), or undefined. */
export function gitErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
