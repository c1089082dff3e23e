/**
 * @module durable-objects/intake-hand-offs
 * The hand-offs under way in one intake shard (task-intake). A delivery is handed to its Task
 * object as soon as it is accepted, in the invocation that stored it, beside the answer rather
 * than before it, instead of one alarm hop later (issue 56); the stored row stays the record and
 * the alarm, armed as before, the backstop, which joins a hand-off under way instead of making a
 * second. At most `limit` begin at acceptance; a burst past that is handed on by the alarm, with
 * its bounded concurrency, as before.
 */

/** A delivery still to hand on, as the shard stores it. */
export type DueDelivery = {
  task_id: string;
  entry: string | null;
  attempts: number;
};

export class IntakeHandOffs {
  readonly #underWay = new Map<string, Promise<void>>();
  readonly #forward: (row: DueDelivery) => Promise<void>;
  readonly #limit: number;

  /** `forward` records its own outcome in the row and never rejects. */
  constructor(forward: (row: DueDelivery) => Promise<void>, limit: number) {
    this.#forward = forward;
    this.#limit = limit;
  }

  /**
   * At acceptance: begins handing `row` on, not waited for by the answer. The runtime's output gate
   * holds the hand-off's call until the row is stored, as it holds the answer (no message leaves a
   * Durable Object before the writes made before it are durable: "output gate",
   * developers.cloudflare.com/durable-objects/reference/glossary), so a Task object never hears of a
   * delivery its shard could still lose. Past the limit, the alarm hands it on.
   */
  begin(row: DueDelivery): void {
    if (this.#underWay.size < this.#limit) void this.join(row);
  }

  /** For the alarm: the hand-off of `row` under way, else a new one. */
  join(row: DueDelivery): Promise<void> {
    let handing = this.#underWay.get(row.task_id);
    if (!handing) {
      handing = this.#forward(row).finally(() => this.#underWay.delete(row.task_id));
      this.#underWay.set(row.task_id, handing);
    }
    return handing;
  }
}
