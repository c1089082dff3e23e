/**
 * @module test/support/request-rounds
 * Sequential round trips counted from what each request waited for, on the client: a request is
 * in round 1 + the highest round whose answer the client held when it sent it. Requests a client
 * sends together are one round however the server schedules them, so nothing depends on
 * wall-clock overlap or on a latency a loaded machine may stretch.
 */
import type { Fetch } from '../../src/sources/github/retry.ts';

export interface CountedRequest {
  url: string;
  round: number;
}

export interface RoundCounter {
  wrap(fetch: Fetch): Fetch;
  rounds(): number;
  requests(): CountedRequest[];
}

export function createRoundCounter(): RoundCounter {
  let answered = 0;
  const log: CountedRequest[] = [];
  return {
    wrap: (fetch) => async (input, init) => {
      const round = answered + 1;
      log.push({ url: input instanceof Request ? input.url : String(input), round });
      try {
        return await fetch(input, init);
      } finally {
        answered = Math.max(answered, round);
      }
    },
    rounds: () => Math.max(0, ...log.map((request) => request.round)),
    requests: () => [...log],
  };
}
