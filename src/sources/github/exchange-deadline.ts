/**
 * @module sources/github/exchange-deadline
 * The installation-token exchange under its own deadline. @octokit/auth-app shares one exchange
 * among every request of an installation in the isolate and passes it no signal, so without
 * this a token endpoint that never answers (or drips its answer) would hold every later request
 * of every task. The deadline covers the retries and the whole body, and its failure says so.
 */
import { untilAborted } from '../../lib/abortable.ts';
import { ExchangeTimeout } from './auth.ts';
import type { Fetch } from './retry.ts';

export const TOKEN_URL = /\/app\/installations\/\d+\/access_tokens$/;

/** Statuses whose response may carry no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * @example
 * const fetch = boundTokenExchange(withRetries(globalThis.fetch, policy), 10_000);
 */
export function boundTokenExchange(fetch: Fetch, timeoutMs: number): Fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!TOKEN_URL.test(url)) return fetch(input, init);
    const deadline = AbortSignal.timeout(timeoutMs);
    const caller = init?.signal ?? undefined;
    const signal = caller ? AbortSignal.any([caller, deadline]) : deadline;
    try {
      const response = await fetch(input, { ...init, signal });
      // A token answer is small: read it whole here, so a dripping one is cut at the deadline too.
      const body = NULL_BODY.has(response.status) ? null : await untilAborted(response.arrayBuffer(), signal);
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error) {
      if (deadline.aborted && !caller?.aborted) throw new ExchangeTimeout(`to ${new URL(url).host} got no answer within ${timeoutMs} ms`);
      throw error;
    }
  };
}
