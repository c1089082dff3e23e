/**
 * @module durable-objects/request-signal
 * When a request a Task object hands to the network has left. `fetch()` only hands it over: it
 * goes out as the isolate's one thread waits for I/O, so work begun at once (the first turn's
 * index report, the wiring's evaluation) would hold it. The first turn's attempt waits on this
 * before that work (first-turn-attempts, task-token-ahead; issue 56).
 */

/**
 * Turns of the event loop a request handed to fetch is left before the work behind it: a cold
 * isolate's first request (a new connection) took more than one to leave, and with one it
 * reached GitHub after the wiring's evaluation (bench/first-turn). A measured count.
 */
export const TURNS_TO_LEAVE = 3;

/** Resolves after `turns` turns of the event loop (zero-delay timers), each open to I/O. */
export async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

export class RequestSignal {
  #waiting: Array<() => void> = [];

  /** Resolves once the next request handed over (`sent`) has had TURNS_TO_LEAVE turns to leave. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => this.#waiting.push(resolve)).then(() => turns(TURNS_TO_LEAVE));
  }

  /** A request is being handed to `fetch` (called just before it). */
  sent(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
