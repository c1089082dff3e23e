/**
 * @module sources/shared-load
 * One load per key, shared by every caller that asks while it runs, each with its own
 * AbortSignal. The load runs under the signal of the caller that started it; if that caller
 * gives up (its deadline fires), the load rejects for everyone who joined it. A joined caller
 * that has not given up must not inherit another's deadline as a failure of the repository, so
 * it starts the load again under its own signal. A failed load is not kept: the next call may
 * succeed.
 *
 * @example
 * const tree = sharedLoads((_key: '', signal?: AbortSignal) => loader.loadTree(signal));
 * await tree('', signal);
 */
export function sharedLoads<K, T>(load: (key: K, signal?: AbortSignal) => Promise<T>): (key: K, signal?: AbortSignal) => Promise<T> {
  const running = new Map<K, { promise: Promise<T>; startedBy: AbortSignal | undefined }>();
  return async (key, signal) => {
    for (;;) {
      let started = running.get(key);
      if (!started) {
        const mine = { promise: load(key, signal), startedBy: signal };
        running.set(key, mine);
        mine.promise.catch(() => {
          if (running.get(key) === mine) running.delete(key);
        });
        started = mine;
      }
      try {
        return await started.promise;
      } catch (error) {
        const abandoned = started.startedBy !== signal && started.startedBy?.aborted === true && signal?.aborted !== true;
        if (!abandoned) throw error;
        if (running.get(key) === started) running.delete(key);
      }
    }
  };
}
