/**
 * @module lib/lazy-schema
 * A module-level zod schema built when something first parses with it (or embeds it, or asks for
 * its JSON Schema), not when its module is evaluated: a cold isolate used to build some 2,300
 * schemas and checks before its first request, over half of its start-up CPU (issue 28), though
 * each request needs a few of them. zod's own `z.lazy` defers the build; `once` keeps the built
 * schema for `.unwrap()`, which would otherwise build it again on every call.
 *
 * @example
 * export const TaskDescriptionSchema = lazySchema(() => z.object({ ... }));
 * TaskDescriptionSchema.parse(answer);             // built here, once
 * TaskDescriptionSchema.unwrap().extend({ ... });  // the same built object
 */
import * as z from 'zod';
import { once } from './once.ts';

/** The schema a `lazySchema` builds, for a type that needs its structure (`Provider<Built<typeof X>>`). */
export type Built<L> = L extends z.ZodLazy<infer T> ? T : never;

export function lazySchema<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  return z.lazy(once(build));
}

/**
 * Builds `schemas` now rather than at their first parse: a first turn calls it while it waits on
 * GitHub, when the CPU is idle, so the checks are ready when the answers come (issue 56). Nothing
 * is checked here. It reads the lazy schema's `innerType`, which zod's parse reads and keeps, so
 * the first parse finds it there (`unwrap` would only ask the builder, whose object `once` keeps).
 */
export function buildSchemas(...schemas: ReadonlyArray<z.ZodLazy<z.ZodType>>): void {
  for (const schema of schemas) void schema._zod.innerType;
}
