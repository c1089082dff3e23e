/**
 * @module test/support/held-timers
 * Holds the timers a module of the Worker sets (its deadlines), so they fire when the test says
 * rather than when the clock says: a deadline that races the machine's speed makes a test pass or
 * fail by load (on a busy machine it can pass before the work reaches the step the test is about).
 * Every other timer runs as usual. Workerd lets only the Durable Object that set a timer touch the
 * I/O its callback ends, so `fire` is called inside that object (`runInDurableObject`).
 * `release` lets go of the hold; a timer still held then never fires.
 */

/** Timers set from the module whose path ends in `from`, of `ms` when given (else of any length). */
export interface TimerRule {
  from: string;
  ms?: number;
}

export interface HeldTimers {
  /** Timers held and not yet fired or cleared. */
  readonly count: number;
  /** Runs every held timer's callback now, in the caller's context. */
  fire(): void;
}

export interface TimerHold<K extends string> {
  /** The timers each rule holds, under its key. */
  held: Record<K, HeldTimers>;
  /** Gives `setTimeout` and `clearTimeout` back. */
  release(): void;
}

/**
 * Holds every timer a rule names, each under its rule's key, from now until `release`. One hold at
 * a time: it takes `setTimeout` and `clearTimeout` over.
 *
 * @example
 * const hold = holdTimers({ deadline: { from: 'src/lib/deadline.ts', ms: 1_000 } });
 * await runInDurableObject(stub, () => hold.held.deadline.fire());
 * hold.release();
 */
export function holdTimers<K extends string>(rules: Record<K, TimerRule>): TimerHold<K> {
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  const entries = (Object.keys(rules) as K[]).map((key) => ({ key, rule: rules[key], held: new Map<number, () => void>() }));
  // Workerd's own timer ids are positive; a held one never names a real timer.
  let nextId = -1;
  const setTimeoutHeld = (callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    const entry = entries.find(({ rule }) => (rule.ms === undefined || rule.ms === delay) && setFrom(rule.from));
    if (!entry) return realSetTimeout(callback, delay, ...args);
    const id = nextId--;
    entry.held.set(id, () => callback(...args));
    return id;
  };
  const clearTimeoutHeld = (id?: number): void => {
    if (typeof id === 'number' && entries.some(({ held }) => held.delete(id))) return;
    realClearTimeout(id);
  };
  // Replaced as properties, so the Worker's modules, which call the globals, find these.
  Object.defineProperty(globalThis, 'setTimeout', { value: setTimeoutHeld, configurable: true, writable: true });
  Object.defineProperty(globalThis, 'clearTimeout', { value: clearTimeoutHeld, configurable: true, writable: true });
  const held = {} as Record<K, HeldTimers>;
  for (const entry of entries) {
    const timers = entry.held;
    held[entry.key] = {
      get count() {
        return timers.size;
      },
      fire() {
        const due = [...timers.values()];
        timers.clear();
        for (const callback of due) callback();
      },
    };
  }
  return {
    held,
    release() {
      Object.defineProperty(globalThis, 'setTimeout', { value: realSetTimeout, configurable: true, writable: true });
      Object.defineProperty(globalThis, 'clearTimeout', { value: realClearTimeout, configurable: true, writable: true });
    },
  };
}

/** Whether the `setTimeout` call being made comes from the module `from` (one of its frames is on the stack). */
function setFrom(from: string): boolean {
  return (new Error().stack ?? '').split('\n').some((frame) => frame.includes(`/${from}:`));
}
