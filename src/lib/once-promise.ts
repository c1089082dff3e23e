/**
 * @module lib/once-promise
 * A promise made on the first call and kept, unless it rejects: then the next call makes it again.
 * For loads that are done once but may fail for a moment (a module's `import()`, a wiring built
 * on it), where keeping a rejection would fail every later call of the isolate.
 *
 * @example
 * const loadApp = oncePromise(() => import('./app.ts').then((module) => module.app));
 * (await loadApp()).fetch(request);
 */
export function oncePromise<T>(make: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    kept ??= make().catch((error: unknown) => {
      kept = undefined;
      throw error;
    });
    return kept;
  };
}
