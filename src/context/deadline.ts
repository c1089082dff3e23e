/**
 * @module context/deadline
 * Runs one step under a deadline. The step gets an AbortSignal that fires at the deadline or when
 * the caller's signal does, but the answer never waits for the step to listen: the race settles
 * at the deadline whatever the step does.
 */

export type Deadlined<T> = { ok: true; value: T } | { ok: false; reason: string };

export async function withDeadline<T>(step: (signal: AbortSignal) => Promise<T>, timeoutMs: number, outer?: AbortSignal): Promise<Deadlined<T>> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const stopped = new Promise<Deadlined<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
      resolve({ ok: false, reason: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    onAbort = () => {
      controller.abort(outer?.reason);
      resolve({ ok: false, reason: `aborted: ${describe(outer?.reason)}` });
    };
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
  });
  // `then` catches a step that throws synchronously as well as one that rejects.
  const work = Promise.resolve()
    .then(() => step(controller.signal))
    .then(
      (value): Deadlined<T> => ({ ok: true, value }),
      (error: unknown): Deadlined<T> => ({ ok: false, reason: describe(error) }),
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
