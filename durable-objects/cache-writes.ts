/**
 * @module durable-objects/cache-writes
 * The cache writes of a Task object's assemblies (sources/write-behind: held until the turn is
 * stored and reported), and the waits for them. A turn's answer waits until they are done; a read
 * through the cache in the same object waits for them first, so it finds what an earlier assembly
 * read instead of asking GitHub for it again. Without that wait a later turn begun as soon as turn
 * 0 was ready read turn 0's read-ahead from GitHub once more whenever turn 0's writes, which start
 * after its report, had not landed yet (test/e2e/github-freshness saw it on a loaded machine).
 */

/** Starts an assembly's held writes and resolves once they are done, or at the deadline; never rejects. */
export type SettleWrites = (options: { deadlineMs: number }) => Promise<void>;

export class CacheWrites {
  readonly #writes: SettleWrites[] = [];
  readonly #deadlineMs: number;
  /** The drains asked for so far, one after another. */
  #drained: Promise<void> = Promise.resolve();

  /** `deadlineMs`: how long one assembly's writes are waited for (a store that does not answer leaves a later miss). */
  constructor(deadlineMs: number) {
    this.#deadlineMs = deadlineMs;
  }

  /** An assembly's writes, handed over as it starts. */
  add(settle: SettleWrites): void {
    this.#writes.push(settle);
  }

  /**
   * Starts every write handed over so far and resolves once they are done, each assembly's for at
   * most the deadline; never rejects. A caller that comes while another's drain is under way waits
   * for that one too: the writes it drains were handed over before this call.
   */
  done(): Promise<void> {
    this.#drained = this.#drained.then(() => this.#drain());
    return this.#drained;
  }

  /**
   * `done()`, or `maxMs`, whichever is first: for a read, which would rather ask GitHub again than
   * spend its own deadline waiting on a store that does not answer.
   */
  async landed(maxMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
    try {
      await Promise.race([this.done(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #drain(): Promise<void> {
    while (this.#writes.length > 0) {
      await Promise.all(this.#writes.splice(0).map((settle) => settle({ deadlineMs: this.#deadlineMs }).catch(() => undefined)));
    }
  }
}
