/**
 * @module durable-objects/pull-request-tasks
 * One Durable Object per pull request (see src/tasks/pull-request-index): the tasks it started,
 * in order, and where each delivery went. It deletes itself when no delivery has touched it for
 * as long as a task is retained (and up to a day more), since by then every task it names is gone too.
 */
import { DurableObject } from 'cloudflare:workers';
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import { getConfig } from '../src/env.ts';
import type { Routed } from '../src/tasks/pull-request-index.ts';
import { applyMigrations, type Migration } from './sqlite-migrations.ts';

const DAY_MS = 86_400_000;
const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE IF NOT EXISTS tasks (seq INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL UNIQUE);
   CREATE TABLE IF NOT EXISTS deliveries (delivery TEXT PRIMARY KEY, kind TEXT NOT NULL, task_id TEXT NOT NULL, at INTEGER NOT NULL);`,
  // 2: when each task was created, which orders them (rows from before it have none: older than any that has).
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

  async lookup(delivery: string): Promise<{ latest: string | null; routed: Routed | null }> {
    // Created last, not recorded last; rows from before created_at (NULL) sort below every newer one.
    const latest = this.#sql.exec<{ task_id: string }>('SELECT task_id FROM tasks ORDER BY created_at DESC, seq DESC LIMIT 1').toArray()[0];
    const row = this.#sql.exec('SELECT kind, task_id FROM deliveries WHERE delivery = ?', delivery).toArray()[0];
    const routed = row ? RoutedSchema.parse(row) : undefined;
    return { latest: latest?.task_id ?? null, routed: routed ? { kind: routed.kind, taskId: routed.task_id } : null };
  }

  /** `createdAt`: when the task was created (default: now), which places it among the pull request's tasks. */
  async record(delivery: string, routed: Routed, createdAt?: number): Promise<void> {
    const now = Date.now();
    this.#sql.exec('INSERT INTO deliveries (delivery, kind, task_id, at) VALUES (?, ?, ?, ?) ON CONFLICT(delivery) DO NOTHING', delivery, routed.kind, routed.taskId, now);
    // A redelivery of an old event finds its task known and moves nothing.
    if (routed.kind === 'task') this.#sql.exec('INSERT INTO tasks (task_id, created_at) VALUES (?, ?) ON CONFLICT(task_id) DO NOTHING', routed.taskId, createdAt ?? now);
    // Armed a day past the retention and moved only once it falls short: a burst of deliveries to
    // one pull request writes the alarm once, not once each, and the object may outlive its last
    // task by up to a day but never goes before it.
    const due = now + getConfig(this.env).TASK_RETENTION_DAYS * DAY_MS;
    const armed = await this.ctx.storage.getAlarm();
    if (armed === null || armed < due) await this.ctx.storage.setAlarm(due + DAY_MS);
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
    migratePullRequestTasks(this.#sql);
  }
}
