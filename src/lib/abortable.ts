/**
 * @module lib/abortable
 * Waiting for work that is not the caller's own. A load shared by several callers runs under
 * its owner's signal (e.g. an assembly's deadline); each caller waits for it under its own, so
 * one caller giving up neither cancels the work for the others nor is held by it.
 *
 * A snapshot's every read waits this way on the same few shared loads (its read-ahead, its tree)
 * under the same assembly signal, hundreds of times a turn. Adding and removing an abort listener
 * per wait was the cost (in workerd each is a call into the runtime's EventTarget): a signal gets
 * one listener however many waits it has, and a load already settled is answered from what it
 * settled with (docs/benchmarks, issue 56).
 */

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What each shared load settled with, once it has; a pending one is watched once. */
const outcomes = new WeakMap<Promise<unknown>, Outcome | 'pending'>();
/** Each signal's waits still pending: one abort listener rejects them all. */
const waits = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

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
  const outcome = watch(promise);
  if (outcome !== 'pending') return outcome.ok ? Promise.resolve(outcome.value as T) : Promise.reject(outcome.error);
  const pending = waitsOf(signal);
  return new Promise<T>((resolve, reject) => {
    pending.add(reject);
    promise.then(
      (value) => {
        pending.delete(reject);
        resolve(value);
      },
      (error: unknown) => {
        pending.delete(reject);
        reject(error);
      },
    );
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

function watch(promise: Promise<unknown>): Outcome | 'pending' {
  const known = outcomes.get(promise);
  if (known) return known;
  outcomes.set(promise, 'pending');
  promise.then(
    (value) => outcomes.set(promise, { ok: true, value }),
    (error: unknown) => outcomes.set(promise, { ok: false, error }),
  );
  return 'pending';
}

function waitsOf(signal: AbortSignal): Set<(reason: unknown) => void> {
  let pending = waits.get(signal);
  if (!pending) {
    const rejects = new Set<(reason: unknown) => void>();
    // Kept for the signal's life: it holds only the waits still pending, each removed as it settles.
    signal.addEventListener(
      'abort',
      () => {
        for (const reject of rejects) reject(signal.reason);
        rejects.clear();
      },
      { once: true },
    );
    waits.set(signal, rejects);
    pending = rejects;
  }
  return pending;
}
