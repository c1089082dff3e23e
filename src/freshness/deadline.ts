/**
 * @module freshness/deadline
 * Runs a check under its own deadline: the work gets a signal that fires at the deadline (or
 * when the caller's does), and the race settles at the deadline even if the work ignores it.
 */

export type Bounded<T> = { ok: true; value: T } | { ok: false; reason: string };

export async function withDeadline<T>(ms: number, outer: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<Bounded<T>> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) throw outer.reason;
  outer?.addEventListener('abort', onAbort, { once: true });
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no answer within ${ms} ms`));
      resolve('expired');
    }, ms);
  });
  try {
    const settled = await Promise.race([work(controller.signal).then((value) => ({ value })), expired]).catch((error: unknown) => {
      // The caller's abort is theirs to handle; an abort by the deadline is a result.
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
