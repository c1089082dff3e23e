/**
 * @module durable-objects/mailbox
 * A task's mailbox: follow-ups appended to its transcript as `local:mailbox:<k>` user items, and
 * recorded on the objective (the `mailbox` table: who, when, and under which idempotency key).
 * The row and the item are written together, synchronously, so they commit together. The item
 * goes through the transcript's writer and its cap like every other: a follow-up that would take
 * the transcript past it is refused (`too-large`, naming `text`) and records nothing. An item
 * appended while turn n is the latest shows in turn n+1's request; one appended before turn 0
 * exists shows from turn 1 on, after the task item.
 *
 * Idempotent by the caller's key: the same key with the same sender and text returns the item
 * already appended; with different ones it is a conflict, never a second item.
 */
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import { MAX_MAILBOX_ITEMS, MAX_MAILBOX_TEXT_CHARS, renderMailbox } from '../src/context/mailbox.ts';
import { mailboxItemId, MailboxItemSchema, type MailboxItem } from '../src/context/transcript.ts';
import { sha256Hex } from '../src/lib/sha256.ts';
import type { MailboxPost } from '../src/tasks/task-request.ts';
import type { MailboxResult, MailboxSummary } from '../src/tasks/task-results.ts';
import type { TaskStore } from './task-store.ts';

const RowSchema = lazySchema(() => z.object({ k: z.number().int(), item_id: z.string(), digest: z.string(), received_at: z.number() }));

export class Mailbox {
  readonly #sql: SqlStorage;
  readonly #store: TaskStore;

  constructor(sql: SqlStorage, store: TaskStore) {
    this.#sql = sql;
    this.#store = store;
  }

  summary(): MailboxSummary {
    const rows = this.#sql.exec('SELECT k, item_id, digest, received_at FROM mailbox ORDER BY k DESC LIMIT 1').toArray();
    const count = Number(this.#sql.exec('SELECT COUNT(*) AS n FROM mailbox').one()['n']);
    const last = rows[0] ? RowSchema.parse(rows[0]) : undefined;
    return { count, lastItemId: last?.item_id ?? null, lastAt: last ? new Date(last.received_at).toISOString() : null };
  }

  async post(post: MailboxPost, now: number): Promise<MailboxResult> {
    if (post.text.length > MAX_MAILBOX_TEXT_CHARS) return { status: 'too-large', field: 'text', message: `at most ${MAX_MAILBOX_TEXT_CHARS} characters (this is ${post.text.length})` };
    const digest = await sha256Hex(JSON.stringify([post.from, post.text]));
    // Nothing below awaits: the checks, the row and the item are one atomic step of the object.
    if (post.key !== undefined) {
      const existing = this.#sql.exec('SELECT k, item_id, digest, received_at FROM mailbox WHERE client_key = ?', post.key).toArray()[0];
      if (existing) {
        const row = RowSchema.parse(existing);
        if (row.digest !== digest) return { status: 'conflict', message: `id was already used for another message (${row.item_id})` };
        return { status: 'ok', item: this.#item(row.item_id), duplicate: true };
      }
    }
    const { count } = this.summary();
    if (count >= MAX_MAILBOX_ITEMS) return { status: 'too-large', field: 'mailbox', message: `this task already holds ${MAX_MAILBOX_ITEMS} follow-ups, the most one task takes; start a new task` };

    const k = count + 1;
    const item: MailboxItem = { id: mailboxItemId(k), type: 'mailbox', role: 'user', from: post.from, content: renderMailbox(post.from, post.text), receivedAt: new Date(now).toISOString() };
    // The transcript's cap holds for follow-ups as for every other item: past it, nobody would read them.
    const written = this.#store.transcript.append([item], Math.max(0, this.#store.nextTurn() - 1));
    if (written.status === 'too-large') return { status: 'too-large', field: 'text', message: written.message };
    this.#sql.exec('INSERT INTO mailbox (k, item_id, client_key, digest, received_at) VALUES (?, ?, ?, ?, ?)', k, item.id, post.key ?? null, digest, now);
    return { status: 'ok', item, duplicate: false };
  }

  #item(id: string): MailboxItem {
    const row = this.#sql.exec<{ item: string }>('SELECT item FROM transcript WHERE item_id = ?', id).one();
    return MailboxItemSchema.parse(JSON.parse(row.item));
  }
}
