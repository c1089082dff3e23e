/**
 * @module sources/github/retry
 * A fetch wrapper that retries what GitHub says is transient (5xx, secondary and primary rate
 * limits) with bounded exponential backoff. It wraps the injected fetch rather than using
 * @octokit/plugin-retry so that the same policy covers the token exchange, and so that a sleep
 * is always cut short by the caller's AbortSignal: a provider's deadline bounds every wait.
 */

export type Fetch = typeof globalThis.fetch;

export interface RetryPolicy {
  /** Extra attempts after the first. */
  retries: number;
  /** First backoff; doubles on each further attempt. */
  baseDelayMs: number;
  /** Longest single wait. A `retry-after` or rate-limit reset beyond it is not waited for. */
  maxDelayMs: number;
  /** Wall clock in ms, for `x-ratelimit-reset`. */
  clock?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 10_000 };

/**
 * @example
 * const octokit = new Octokit({ request: { fetch: withRetries(fetch, DEFAULT_RETRY_POLICY) } });
 */
export function withRetries(fetch: Fetch, policy: RetryPolicy): Fetch {
  const clock = policy.clock ?? Date.now;
  const retrying: Fetch = async (input, init) => {
    const signal = init?.signal ?? undefined;
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
      let response: Response;
      try {
        response = await fetch(input, init);
      } catch (error) {
        if (signal?.aborted || attempt >= policy.retries) throw error;
        await sleep(backoff, signal);
        continue;
      }
      const delay = retryDelay(response, backoff, clock());
      if (delay === undefined || delay > policy.maxDelayMs || attempt >= policy.retries) return response;
      // Release the connection before waiting; the body of a response we retry is never read.
      await response.body?.cancel();
      await sleep(delay, signal);
    }
  };
  return retrying;
}

/** Milliseconds to wait before retrying, or undefined when the response is final. */
function retryDelay(response: Response, backoff: number, now: number): number | undefined {
  const { status, headers } = response;
  const retryAfter = headers.get('retry-after');
  const exhausted = headers.get('x-ratelimit-remaining') === '0';
  // A 403 without rate-limit headers is a permission answer, not congestion.
  const transient = status >= 500 || status === 429 || (status === 403 && (retryAfter !== null || exhausted));
  if (!transient) return undefined;
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    return Number.isFinite(seconds) ? Math.max(0, seconds * 1000) : backoff;
  }
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (exhausted && Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  return backoff;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
