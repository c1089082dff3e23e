/**
 * @module tasks/errors
 * Assembly failures that retrying cannot fix (unknown agent, unknown ref, missing credentials):
 * the task fails at once instead of spending its retries.
 */
export class PermanentAssemblyError extends Error {
  override readonly name = 'PermanentAssemblyError';
}
