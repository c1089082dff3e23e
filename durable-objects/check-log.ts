/**
 * @module durable-objects/check-log
 * The checks a Task object recorded (`POST /tasks/:id/checks`): each answer as it was given,
 * numbered from 1, the last {@link MAX_CHECK_RECORDS} kept and the older ones dropped and counted
 * (`meta.checks_dropped`). A record is one row written in one synchronous step with the trim, so
 * the bound holds however many checks arrive together. Nothing here touches the transcript or
 * the turns: a check never changes what the model was given.
 */
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import { CheckRecordSchema, type CheckLog, type CheckRecord, type CheckResult } from '../src/checks/result.ts';

export const MAX_CHECK_RECORDS = 50;

const RowSchema = lazySchema(() => z.object({ record: z.string().transform((text) => CheckRecordSchema.parse(JSON.parse(text))) }));

export class CheckLogStore {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Records an answer; returns it with its number. */
  record(result: CheckResult, checkedAt: number): CheckRecord {
    const id = this.#count() + 1;
    const record: CheckRecord = { id, ...result };
    this.#sql.exec('INSERT INTO checks (id, action, verdict, checked_at, record) VALUES (?, ?, ?, ?, ?)', id, result.action, result.verdict, checkedAt, JSON.stringify(record));
    const over = Number(this.#sql.exec('SELECT COUNT(*) AS n FROM checks').one()['n']) - MAX_CHECK_RECORDS;
    if (over > 0) {
      this.#sql.exec('DELETE FROM checks WHERE id IN (SELECT id FROM checks ORDER BY id LIMIT ?)', over);
      this.#sql.exec(
        "INSERT INTO meta (key, value) VALUES ('checks_dropped', ?) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER)",
        String(over),
      );
    }
    return record;
  }

  /** Every kept record, newest first. */
  records(): CheckRecord[] {
    return this.#sql
      .exec('SELECT record FROM checks ORDER BY id DESC')
      .toArray()
      .map((row) => RowSchema.parse(row).record);
  }

  /** How many checks were made, how many were dropped, and the kept ones without their details, newest first. */
  log(): CheckLog {
    const recent = this.records().map(({ details: _details, ...entry }) => entry);
    return { count: this.#count(), dropped: this.#dropped(), recent };
  }

  #count(): number {
    return Number(this.#sql.exec('SELECT COALESCE(MAX(id), 0) AS n FROM checks').one()['n']);
  }

  #dropped(): number {
    const row = this.#sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'checks_dropped'").toArray()[0];
    return row ? Number(row.value) : 0;
  }
}
