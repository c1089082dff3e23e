/**
 * @module lib/abortable
 * Waiting for work that is not the caller's own. A load shared by several callers runs under
 * its owner's signal (e.g. an assembly's deadline); each caller waits for it under its own, so
 * one caller giving up neither cancels the work for the others nor is held by it.
 */

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as `signal` aborts. The
 * promise itself runs on.
 *
 * @example
 * const tree = await untilAborted(sharedTreeLoad, providerSignal);
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Starts a load every caller shares, under its owner's `lifetime`, unless that is already over.
 *
 * @example
 * tree ??= startShared(assemblyDeadline, () => loader.loadTree(assemblyDeadline));
 */
export function startShared<T>(lifetime: AbortSignal | undefined, start: () => Promise<T>): Promise<T> {
  return lifetime?.aborted ? Promise.reject(lifetime.reason) : start();
}
