/**
 * @module lib/wait-at-most
 * Waits for a promise, but no longer than a bound: a tool call answers within its bound whatever
 * the work it waits on does, and the work goes on (a task keeps assembling). The timer is
 * cleared when the work wins, so nothing is left scheduled.
 *
 * @example
 * const waited = await waitAtMost(stub.beginTurn(tenant, 0), 25_000);
 * if (!waited.done) return notReady(...);
 */
export type Waited<T> = { done: true; value: T } | { done: false };

export async function waitAtMost<T>(work: Promise<T>, ms: number): Promise<Waited<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  try {
    return await Promise.race([work.then((value) => ({ done: true as const, value })), bound]);
  } finally {
    clearTimeout(timer);
  }
}
