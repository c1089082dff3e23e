/**
 * @module durable-objects/transcript-writer
 * The only way anything is appended to a task's transcript: client items, mailbox follow-ups
 * (the API, pull request comments, the host's notes), each turn's context item, and whatever
 * writes one later. Every append goes through the one cap check (`transcriptCapIssue`), all or
 * nothing, and only what is new counts: a retried batch is duplicates, never too large.
 *
 * What the cap counts is what the transcript holds plus what it owes: a turn record stored
 * before its item (the ledger's first write) has that item's room kept for it, so a follow-up
 * arriving in between cannot take it and leave the turn unrepairable. What is owed is read from
 * the records only when it could matter: an item a turn owes is written inside that turn's record,
 * so all the records' bytes bound it, and an append that fits beside that bound fits. Reading the
 * owed items parsed every stored record in SQLite on every append (a 75 KB record for a pull
 * request's turn 0, twice a turn; every turn's on each of a long task's appends: issue 56).
 *
 * Each item's stored text is made once however often it is measured and written (the ledger
 * checks a turn's item before it stores the record, then appends it): a turn's context item is
 * tens of kilobytes.
 *
 * @example
 * const written = store.transcript.append([item], turn);
 * if (written.status === 'too-large') return { status: 'too-large', message: written.message };
 */
import type { TranscriptItem } from '../src/context/transcript.ts';
import { storedItemBytes, transcriptCapIssue, utf8Bytes } from '../src/context/transcript-limits.ts';

export type AppendOutcome = { status: 'ok'; appended: string[]; duplicates: string[] } | TooLarge;
export type TooLarge = { status: 'too-large'; message: string };

interface StoredText {
  text: string;
  bytes: number;
}

export class TranscriptWriter {
  readonly #sql: SqlStorage;
  readonly #appended: ((id: string, text: string) => void) | undefined;
  /** Items are not changed once handed to the writer, so their text is kept with them. */
  readonly #texts = new WeakMap<TranscriptItem, StoredText>();

  /** `appended`: told each item's id and stored text as it is inserted (task-store's read memo). */
  constructor(sql: SqlStorage, appended?: (id: string, text: string) => void) {
    this.#sql = sql;
    this.#appended = appended;
  }

  /** Bytes the transcript holds: each item's JSON in UTF-8, as `storedItemBytes` counts it. */
  bytes(): number {
    return this.#sql.exec<{ bytes: number }>('SELECT COALESCE(SUM(length(CAST(item AS BLOB))), 0) AS bytes FROM transcript').one().bytes;
  }

  /** What `append` would answer about the cap, writing nothing; undefined when the items fit. */
  check(items: readonly TranscriptItem[]): TooLarge | undefined {
    const fresh = this.#fresh(items);
    const adding = [...fresh.values()].reduce((sum, item) => sum + this.#stored(item).bytes, 0);
    const held = this.bytes();
    // The records' bytes bound what they owe: fitting beside them, the items fit beside what is owed.
    if (transcriptCapIssue(held + this.#recordBytes(), adding) === undefined) return undefined;
    const issue = transcriptCapIssue(held + this.#owed(fresh), adding);
    return issue === undefined ? undefined : { status: 'too-large', message: issue };
  }

  /** Appends every item whose id is new, in order, during `turn`; all or nothing. */
  append(items: readonly TranscriptItem[], turn: number): AppendOutcome {
    const refused = this.check(items);
    if (refused) return refused;
    const appended: string[] = [];
    const duplicates: string[] = [];
    for (const item of items) {
      const { text } = this.#stored(item);
      const inserted = this.#sql.exec('INSERT INTO transcript (item_id, turn, item) VALUES (?, ?, ?) ON CONFLICT(item_id) DO NOTHING RETURNING seq', item.id, turn, text).toArray();
      (inserted.length > 0 ? appended : duplicates).push(item.id);
      if (inserted.length > 0) this.#appended?.(item.id, text);
    }
    return { status: 'ok', appended, duplicates };
  }

  /** The item's text as stored, and its bytes as the cap counts them, made once per item. */
  #stored(item: TranscriptItem): StoredText {
    const known = this.#texts.get(item);
    if (known) return known;
    const text = JSON.stringify(item);
    const stored = { text, bytes: utf8Bytes(text) };
    this.#texts.set(item, stored);
    return stored;
  }

  /** The stored turn records' bytes: a bound on what they owe, read without parsing any of them. */
  #recordBytes(): number {
    return this.#sql.exec<{ bytes: number }>('SELECT COALESCE(SUM(length(CAST(record AS BLOB))), 0) AS bytes FROM turns').one().bytes;
  }

  /** The first item of each id that is not in the transcript yet. */
  #fresh(items: readonly TranscriptItem[]): Map<string, TranscriptItem> {
    const fresh = new Map<string, TranscriptItem>();
    for (const item of items) {
      if (!fresh.has(item.id) && this.#sql.exec('SELECT 1 FROM transcript WHERE item_id = ?', item.id).toArray().length === 0) fresh.set(item.id, item);
    }
    return fresh;
  }

  /** Bytes of the items stored turns imply but the transcript does not hold yet, except those being appended now. */
  #owed(appending: ReadonlyMap<string, TranscriptItem>): number {
    const owed = this.#sql
      .exec<{ id: string; item: string }>(
        `SELECT json_extract(record, '$.item.id') AS id, json_extract(record, '$.item') AS item FROM turns
         WHERE json_extract(record, '$.item.id') IS NOT NULL AND json_extract(record, '$.item.id') NOT IN (SELECT item_id FROM transcript)`,
      )
      .toArray();
    return owed.filter((row) => !appending.has(row.id)).reduce((sum, row) => sum + storedItemBytes(JSON.parse(row.item)), 0);
  }
}
