/**
 * @module durable-objects/request-signal
 * When a Task object's wiring next hands a request to the network. The first turn's attempt waits
 * on it before its index report (first-turn-attempts): the report's work shares the isolate's one
 * thread with the assembly, and begun first it held the assembly's first GitHub request (issue 56).
 */
export class RequestSignal {
  #waiting: Array<() => void> = [];

  /** Resolves at the next `sent()`. */
  next(): Promise<void> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /**
   * A request is being handed over: called just before `fetch`, so a waiter's continuation (a
   * microtask) runs after the request has been given to the runtime.
   */
  sent(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
