/**
 * @module durable-objects/task-intake
 * One intake shard (src/tasks/task-intake): the deliveries of triggers, stored as they are
 * accepted and handed to their Task objects after the answer. A delivery is accepted with one
 * insert into a warm object and, for the first of a burst, one alarm; the Task object, new for
 * every delivery, is created by this object's alarm instead of on the sender's clock (issue 28).
 * Forwarding is at-least-once (`create` is idempotent), so a shard that dies mid-batch repeats
 * some of it and loses none. A forwarded row keeps only its task id, to answer a redelivery as a
 * duplicate, for as long as a task is retained.
 */
import { DurableObject } from 'cloudflare:workers';
import { getConfig } from '../src/env.ts';
import { withDeadline } from '../src/lib/deadline.ts';
import { applyMigrations, type Migration } from './sqlite-migrations.ts';

/** Rows forwarded per alarm; a longer queue re-arms the alarm at once. */
const FORWARD_BATCH = 64;
/** Task objects being created at once by one shard. */
const FORWARD_CONCURRENCY = 8;
/** A Task object's `create` is a few inserts; one that takes this long is stuck and is tried again. */
const FORWARD_DEADLINE_MS = 10_000;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

// due_at set: still to forward (entry holds the create's arguments). NULL: forwarded. A class of
// its own since v5 (wrangler.toml), so its one step is the whole schema and no fresh script is kept.
const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE IF NOT EXISTS deliveries (task_id TEXT PRIMARY KEY, entry TEXT, received_at INTEGER NOT NULL,
     due_at INTEGER, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT);
   CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (due_at) WHERE due_at IS NOT NULL;`,
];

/** `accepted`: stored now. `pending`, `forwarded`: a redelivery, of a task not yet, or already, handed on. */
export type IntakeAnswer = 'accepted' | 'pending' | 'forwarded';

export class TaskIntake extends DurableObject<Env> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    applyMigrations(this.#sql, MIGRATIONS);
  }

  /** Stores `entry` (the task's `create` arguments as JSON) unless the task is known; durable once answered. */
  async accept(taskId: string, entry: string): Promise<IntakeAnswer> {
    const now = Date.now();
    const stored = this.#sql.exec('INSERT INTO deliveries (task_id, entry, received_at, due_at) VALUES (?, ?, ?, ?) ON CONFLICT(task_id) DO NOTHING', taskId, entry, now, now);
    if (stored.rowsWritten === 0) {
      const row = this.#sql.exec<{ due_at: number | null }>('SELECT due_at FROM deliveries WHERE task_id = ?', taskId).one();
      return row.due_at === null ? 'forwarded' : 'pending';
    }
    // The first delivery of a burst arms the alarm; the rest find it armed. While the alarm runs,
    // getAlarm answers null, so a delivery accepted meanwhile arms the next run.
    const armed = await this.ctx.storage.getAlarm();
    if (armed === null || armed > now) await this.ctx.storage.setAlarm(now);
    return 'accepted';
  }

  /** The stored `create` arguments of a task not yet forwarded, for its Task object asked before the alarm ran. */
  async pending(taskId: string): Promise<string | null> {
    const row = this.#sql.exec<{ entry: string | null }>('SELECT entry FROM deliveries WHERE task_id = ? AND due_at IS NOT NULL', taskId).toArray()[0];
    return row?.entry ?? null;
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const due = this.#sql
      .exec<{ task_id: string; entry: string | null; attempts: number }>('SELECT task_id, entry, attempts FROM deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?', now, FORWARD_BATCH)
      .toArray();
    let next = 0;
    const worker = async () => {
      for (let row = due[next++]; row !== undefined; row = due[next++]) await this.#forward(row);
    };
    await Promise.all(Array.from({ length: Math.min(FORWARD_CONCURRENCY, due.length) }, worker));
    this.#prune(Date.now());
    await this.#rearm();
  }

  async #forward(row: { task_id: string; entry: string | null; attempts: number }): Promise<void> {
    try {
      // Handed on as stored: the Task object reads it, once (a parse here was a second one).
      const stub = this.env.TASKS.get(this.env.TASKS.idFromString(row.task_id));
      const made = await withDeadline(FORWARD_DEADLINE_MS, () => `no answer in ${FORWARD_DEADLINE_MS / 1000} s`, () => stub.createFromIntake(row.entry ?? 'null'));
      if (made.refused !== null) throw new Error(made.refused);
      this.#sql.exec('UPDATE deliveries SET entry = NULL, due_at = NULL, last_error = NULL WHERE task_id = ?', row.task_id);
    } catch (error) {
      const attempts = row.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      const retryMs = Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), MAX_RETRY_MS);
      console.error(`task ${row.task_id}: delivery not handed on (attempt ${attempts}, retry in ${retryMs / 1000} s): ${message}`);
      this.#sql.exec('UPDATE deliveries SET attempts = ?, due_at = ?, last_error = ? WHERE task_id = ?', attempts, Date.now() + retryMs, message.slice(0, 1000), row.task_id);
    }
  }

  /**
   * Forwarded rows go once a task of theirs would be gone too. A delivery that could not be
   * handed on for that long is given up, loudly: its task would already have expired.
   */
  #prune(now: number): void {
    const before = now - getConfig(this.env).TASK_RETENTION_DAYS * DAY_MS;
    this.#sql.exec('DELETE FROM deliveries WHERE due_at IS NULL AND received_at < ?', before);
    const abandoned = this.#sql.exec<{ task_id: string; last_error: string | null }>('DELETE FROM deliveries WHERE due_at IS NOT NULL AND received_at < ? RETURNING task_id, last_error', before).toArray();
    for (const row of abandoned) console.error(`task ${row.task_id}: delivery given up after the retention period (last error: ${row.last_error ?? 'none'})`);
  }

  /** The next due delivery, else the next forwarded row to prune, else nothing to wake for. */
  async #rearm(): Promise<void> {
    const due = this.#sql.exec<{ at: number | null }>('SELECT MIN(due_at) AS at FROM deliveries WHERE due_at IS NOT NULL').one().at;
    if (due !== null) return this.ctx.storage.setAlarm(due);
    const oldest = this.#sql.exec<{ at: number | null }>('SELECT MIN(received_at) AS at FROM deliveries').one().at;
    if (oldest !== null) return this.ctx.storage.setAlarm(oldest + getConfig(this.env).TASK_RETENTION_DAYS * DAY_MS);
    return this.ctx.storage.deleteAlarm();
  }
}
