/**
 * @module lib/deep-freeze
 * Freezes a value and everything it holds, for objects many readers share (a stored task's
 * request, the agent catalog's configurations): a reader that tried to change one would change
 * it for all of them, so the attempt throws instead. Returns the same value.
 */
export function deepFreeze<T>(value: T): Readonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
