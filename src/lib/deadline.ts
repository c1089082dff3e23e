/**
 * @module lib/deadline
 * A deadline that holds even against work that ignores its signal: the work gets an AbortSignal
 * that fires at the deadline, and the caller is answered by then whatever the work does.
 */

export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
}

/**
 * Runs `work` under a signal that aborts after `ms` with a {@link DeadlineExceeded} whose message
 * is `describe()` at that moment (so it can name the step in progress), and rejects with the
 * same error at the same time.
 *
 * @example
 * await withDeadline(15_000, () => `no answer while ${step}`, (signal) => fetch(url, { signal }));
 */
export function withDeadline<T>(ms: number, describe: () => string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineExceeded(describe());
      controller.abort(error);
      reject(error);
    }, ms);
  });
  // `then` also catches a synchronous throw from `work`.
  const running = Promise.resolve().then(() => work(controller.signal));
  return Promise.race([running, expired]).finally(() => clearTimeout(timer));
}
