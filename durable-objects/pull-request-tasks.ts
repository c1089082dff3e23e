/**
 * @module durable-objects/pull-request-tasks
 * One Durable Object per pull request (see src/tasks/pull-request-index): the tasks it started,
 * in the order their deliveries reached it, and where each delivery went. It deletes itself when no delivery has touched it for
 * as long as a task is retained (and up to a day more), since by then every task it names is gone too.
 */
import { DurableObject } from 'cloudflare:workers';
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import { getConfig } from '../src/env.ts';
import type { Lookup, Routed } from '../src/tasks/pull-request-index.ts';
import { applyMigrations, type Migration } from './sqlite-migrations.ts';

const DAY_MS = 86_400_000;
const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE IF NOT EXISTS tasks (seq INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL UNIQUE);
   CREATE TABLE IF NOT EXISTS deliveries (delivery TEXT PRIMARY KEY, kind TEXT NOT NULL, task_id TEXT NOT NULL, at INTEGER NOT NULL);`,
  // 2: each task's place, which orders them (rows from before it have none: older than any that has).
  addCreatedAtColumn,
];
/** Where the steps lead, for a new object in one go; test/tasks/pull-request-tasks.test.ts holds them equal. */
const FRESH = `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE tasks (seq INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL UNIQUE, created_at INTEGER);
  CREATE TABLE deliveries (delivery TEXT PRIMARY KEY, kind TEXT NOT NULL, task_id TEXT NOT NULL, at INTEGER NOT NULL);`;

/** `steps`: run every step even on a new object, as objects stored before the fresh schema did (for tests). */
export function migratePullRequestTasks(sql: SqlStorage, how: 'fresh-when-new' | 'steps' = 'fresh-when-new'): void {
  applyMigrations(sql, MIGRATIONS, how === 'steps' ? {} : { fresh: FRESH });
}

function addCreatedAtColumn(sql: SqlStorage): void {
  const columns = sql.exec<{ name: string }>('PRAGMA table_info(tasks)').toArray();
  if (!columns.some((column) => column.name === 'created_at')) sql.exec('ALTER TABLE tasks ADD COLUMN created_at INTEGER');
}

const RoutedSchema = lazySchema(() => z.object({ kind: z.enum(['task', 'mailbox']), task_id: z.string() }));

export class PullRequestTasks extends DurableObject<Env> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    migratePullRequestTasks(this.#sql);
  }

  async lookup(delivery: string): Promise<Lookup> {
    // Placed last, not recorded last; rows from before created_at (NULL) sort below every newer one.
    const latest = this.#sql.exec<{ task_id: string }>('SELECT task_id FROM tasks ORDER BY created_at DESC, seq DESC LIMIT 1').toArray()[0];
    const row = this.#sql.exec('SELECT kind, task_id FROM deliveries WHERE delivery = ?', delivery).toArray()[0];
    const routed = row ? RoutedSchema.parse(row) : undefined;
    return { latest: latest?.task_id ?? null, routed: routed ? { kind: routed.kind, taskId: routed.task_id } : null, place: this.#nextPlace() };
  }

  /** `place`: where the task goes among the pull request's tasks (default: after every place so far). */
  async record(delivery: string, routed: Routed, place?: number): Promise<{ previous: string | null }> {
    const now = Date.now();
    this.#sql.exec('INSERT INTO deliveries (delivery, kind, task_id, at) VALUES (?, ?, ?, ?) ON CONFLICT(delivery) DO NOTHING', delivery, routed.kind, routed.taskId, now);
    let previous: string | null = null;
    if (routed.kind === 'task') {
      // A redelivery of an old event finds its task known and moves nothing.
      const at = place ?? this.#nextPlace();
      const added = this.#sql.exec('INSERT INTO tasks (task_id, created_at) VALUES (?, ?) ON CONFLICT(task_id) DO NOTHING', routed.taskId, at).rowsWritten > 0;
      // A place given (a lookup's, a late entry's creation time) is one the next must come after too.
      if (added && place !== undefined && place > this.#lastPlace()) this.#setLastPlace(place);
      previous = this.#placedBefore(routed.taskId);
    }
    // Armed a day past the retention and moved only once it falls short: a burst of deliveries to
    // one pull request writes the alarm once, not once each, and the object may outlive its last
    // task by up to a day but never goes before it.
    const due = now + getConfig(this.env).TASK_RETENTION_DAYS * DAY_MS;
    const armed = await this.ctx.storage.getAlarm();
    if (armed === null || armed < due) await this.ctx.storage.setAlarm(due + DAY_MS);
    return { previous };
  }

  /**
   * A place after every place handed out and every task recorded: the clock, or one past the last
   * place when the clock has not moved on since (two deliveries in one millisecond keep their order).
   */
  #nextPlace(): number {
    const place = Math.max(Date.now(), this.#lastPlace() + 1);
    this.#setLastPlace(place);
    return place;
  }

  /** The last place given; before there was one, the latest task's (objects stored before places were kept). */
  #lastPlace(): number {
    const kept = this.#sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'last_place'").toArray()[0];
    if (kept) return Number(kept.value);
    return this.#sql.exec<{ at: number | null }>('SELECT MAX(created_at) AS at FROM tasks').one().at ?? 0;
  }

  #setLastPlace(place: number): void {
    this.#sql.exec("INSERT INTO meta (key, value) VALUES ('last_place', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", String(place));
  }

  /** The task placed just before `taskId`, if any. */
  #placedBefore(taskId: string): string | null {
    const row = this.#sql
      .exec<{ task_id: string }>(
        `SELECT other.task_id FROM tasks other, tasks mine WHERE mine.task_id = ? AND other.task_id != mine.task_id
           AND (COALESCE(other.created_at, -1) < COALESCE(mine.created_at, -1) OR (COALESCE(other.created_at, -1) = COALESCE(mine.created_at, -1) AND other.seq < mine.seq))
         ORDER BY other.created_at DESC, other.seq DESC LIMIT 1`,
        taskId,
      )
      .toArray()[0];
    return row?.task_id ?? null;
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
    migratePullRequestTasks(this.#sql);
  }
}
