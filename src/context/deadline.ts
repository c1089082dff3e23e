/**
 * @module context/deadline
 * Runs one step under a deadline. The step gets an AbortSignal that fires at the deadline or when
 * the caller's signal does, but the answer never waits for the step to listen: the race settles
 * at the deadline whatever the step does.
 */

export type Deadlined<T> =
  | { kind: 'returned'; value: T }
  | { kind: 'timed-out' }
  | { kind: 'aborted'; reason: string }
  | { kind: 'failed'; reason: string };

export interface DeadlineOptions {
  /** The caller's signal: aborting it settles the step as `aborted`. */
  signal?: AbortSignal | undefined;
  /** What the step's signal is aborted with at the deadline; a step that rejects with it timed out. */
  timeoutReason?: Error;
}

export async function withDeadline<T>(step: (signal: AbortSignal) => Promise<T>, timeoutMs: number, options: DeadlineOptions = {}): Promise<Deadlined<T>> {
  const { signal: outer } = options;
  const timeoutReason = options.timeoutReason ?? new Error(`no answer within ${timeoutMs} ms`);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const stopped = new Promise<Deadlined<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(timeoutReason);
      resolve({ kind: 'timed-out' });
    }, timeoutMs);
    onAbort = () => {
      controller.abort(outer?.reason);
      resolve({ kind: 'aborted', reason: describe(outer?.reason) });
    };
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
  });
  // `then` catches a step that throws synchronously as well as one that rejects.
  const work = Promise.resolve()
    .then(() => step(controller.signal))
    .then(
      (value): Deadlined<T> => ({ kind: 'returned', value }),
      (error: unknown): Deadlined<T> => (error === timeoutReason ? { kind: 'timed-out' } : { kind: 'failed', reason: describe(error) }),
    );
  try {
    return await Promise.race([work, stopped]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
