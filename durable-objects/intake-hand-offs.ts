/**
 * @module durable-objects/intake-hand-offs
 * The hand-offs under way in one intake shard (task-intake), so a delivery is handed to its Task
 * object once however many ask: the Worker, which asks the shard to hand on what it accepted once
 * it has answered (`handOn`, issue 56), and the shard's alarm, the at-least-once backstop, which
 * joins a hand-off under way instead of making a second. At most `limit` are begun on request; a
 * burst past that is handed on by the alarm, with its own bounded concurrency.
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

  /** On request: the hand-off of `row` under way, else a new one unless `limit` are; answers when it has ended. */
  begin(row: DueDelivery): Promise<void> {
    return this.#underWay.get(row.task_id) ?? (this.#underWay.size < this.#limit ? this.join(row) : Promise.resolve());
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
