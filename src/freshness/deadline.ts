/**
 * @module freshness/deadline
 * Runs a check under its own deadline: the work gets a signal that fires at the deadline (or
 * when the caller's does), and the race settles at the deadline, or at the caller's abort, even
 * if the work ignores its signal. The caller's abort is rethrown; the deadline is a result.
 */

export type Bounded<T> = { ok: true; value: T } | { ok: false; reason: string };

export async function withDeadline<T>(ms: number, outer: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<Bounded<T>> {
  outer?.throwIfAborted();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const stopped = new Promise<'expired'>((resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no answer within ${ms} ms`));
      resolve('expired');
    }, ms);
    onAbort = () => {
      controller.abort(outer?.reason);
      reject(outer?.reason);
    };
    outer?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const settled = await Promise.race([work(controller.signal).then((value) => ({ value })), stopped]).catch((error: unknown) => {
      // Work that gave up because the deadline aborted it has simply run out of time.
      if (outer?.aborted || !controller.signal.aborted) throw error;
      return 'expired' as const;
    });
    if (settled === 'expired') return { ok: false, reason: `no answer within ${ms} ms` };
    return { ok: true, value: settled.value };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}
