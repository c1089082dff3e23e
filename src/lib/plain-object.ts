/**
 * @module lib/plain-object
 * Whether a value is an object literal's (or `Object.create(null)`'s): the values a hand-written
 * check may read key by key, leaving anything else (a class instance, an array, a proxy's target
 * with a prototype) to the zod schema that words the answer.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
