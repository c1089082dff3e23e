/**
 * @module test/support/request-waves
 * Counts round trips from what each request waited for, not from when requests ran. A fetch
 * wrapper sends every request at once but hands the answers back in waves: it holds every answer
 * until the client has stopped issuing requests (its work is all blocked on held answers, which
 * takes some event-loop turns, never some milliseconds), then releases them together. A request
 * issued before any answer of wave n was released cannot have waited for one, so it belongs to
 * round n; one issued after is round n + 1 at most. On a loaded machine every turn is slower,
 * but the turns happen in the same order, so the count cannot change with load.
 *
 * @example
 * const waves = requestWaves();
 * const source = createGitHubSource({ ..., fetch: waves.fetch });
 * // ... assemble ...
 * expect(waves.rounds()).toBe(2);
 */

export interface WaveRequest {
  method: string;
  path: string;
  /** 1 for requests issued before any answer came back, n + 1 after the answers of round n. */
  round: number;
}

export interface RequestWaves {
  fetch: typeof fetch;
  /** The deepest round any request was issued in; 0 when none was. */
  rounds(): number;
  requests(): WaveRequest[];
}

/** Event-loop turns without a new request after which the client counts as blocked on its answers. */
const QUIET_TURNS = 50;
const NULL_BODY = new Set([101, 204, 205, 304]);

export function requestWaves(inner: typeof fetch = (input, init) => globalThis.fetch(input, init)): RequestWaves {
  const log: WaveRequest[] = [];
  let released = 0;
  let held: Array<() => void> = [];
  let answering: Array<Promise<unknown>> = [];
  let watching = false;

  /** Waits until no request came for QUIET_TURNS turns and every held answer has arrived, then releases the wave. */
  const watch = async (): Promise<void> => {
    watching = true;
    for (;;) {
      let seen = log.length;
      for (let quiet = 0; quiet < QUIET_TURNS; quiet++) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (log.length !== seen) {
          seen = log.length;
          quiet = -1;
        }
      }
      const arriving = answering;
      await Promise.allSettled(arriving);
      if (log.length !== seen || answering.length !== arriving.length) continue;
      const wave = held;
      held = [];
      answering = [];
      released++;
      for (const release of wave) release();
      if (held.length === 0) break;
    }
    watching = false;
  };

  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    log.push({ method: request.method, path: url.pathname + url.search, round: released + 1 });
    // The whole body is read before the answer is released, so the client's next step needs no I/O.
    const answer = inner(request).then(async (response) => {
      const body = await response.arrayBuffer();
      // A 204 or 304 may carry no body, not even an empty one.
      return new Response(NULL_BODY.has(response.status) ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
    });
    answering.push(answer);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    held.push(release);
    if (!watching) void watch();
    await gate;
    return answer;
  };

  return {
    fetch: wrapped,
    rounds: () => Math.max(0, ...log.map((request) => request.round)),
    requests: () => log.map((request) => ({ ...request })),
  };
}
