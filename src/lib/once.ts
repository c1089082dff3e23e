/**
 * @module lib/once
 * A value built on first use and kept: for module-level objects (zod schemas above all) that only
 * some requests need, so an isolate's start-up does not build them (issue 28).
 *
 * @example
 * export const getTurnSchema = once(() => z.strictObject({ ... }));
 * getTurnSchema().parse(args);
 */
export function once<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
