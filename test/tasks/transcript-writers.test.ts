/**
 * One cap for every writer of a transcript: client items, mailbox follow-ups (the API, pull
 * request comments, the host's notes), and each turn's context item all go through the
 * transcript writer's one check, so none can take a task past the cap that keeps its turns
 * readable, and a follow-up that would is refused rather than kept for nobody.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { Mailbox } from '../../durable-objects/mailbox.ts';
import { type TaskStore, type TaskRow, type TurnRecord } from '../../durable-objects/task-store.ts';
import { taskStoreOf } from '../support/task-object.ts';
import { TurnLedger } from '../../durable-objects/turn-ledger.ts';
import { MAX_MAILBOX_TEXT_CHARS } from '../../src/context/mailbox.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { contextItemId, MAX_ITEM_BYTES, MAX_TRANSCRIPT_BYTES, storedItemBytes, TASK_ITEM_ID } from '../../src/tasks/transcript.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const request = TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', request: 'x' });
const OVER_CAP = /^appending \d+ bytes would bring the transcript to \d+, over its cap of 4194304 bytes; nothing was appended/;

async function readyTask(): Promise<string> {
  const created = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'Explain the build.' } });
  const id = String(created.json['id']);
  await waitForTask(id, settled);
  return id;
}

function transcriptBytes(id: string): Promise<number> {
  return runInDurableObject(env.TASKS.get(env.TASKS.idFromString(id)), (_, state) => taskStoreOf(state.storage.sql).transcript.bytes());
}

/** A turn record whose host item says `content`. */
function record(turn: number, content: string): TurnRecord {
  return {
    turn,
    digest: `sha256:${String(turn).repeat(64).slice(0, 64)}`,
    chars: content.length,
    tokens: 1,
    item: turn === 0 ? { id: TASK_ITEM_ID, type: 'message', role: 'user', content } : { id: contextItemId(turn), type: 'context', role: 'user', content },
    agent: 'entry',
    commit: 'a'.repeat(40),
    repository: 'o/r',
    system: [],
    tools: [],
    providers: [],
    entries: [],
    createdAt: 1,
  };
}

/** A fresh Task object's store, mailbox and a ledger whose turn n item is `contents[n]`. */
function inFreshObject<T>(contents: Record<number, string>, body: (parts: { store: TaskStore; mailbox: Mailbox; ledger: TurnLedger; sql: SqlStorage }) => Promise<T>): Promise<T> {
  return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    store.insertTask('t', request, 0, 1);
    const assemble = async (_task: TaskRow, turn: number) => record(turn, contents[turn] ?? `turn ${turn}`);
    return body({ store, mailbox: new Mailbox(state.storage.sql, store), ledger: new TurnLedger({ store, assemble }), sql: state.storage.sql });
  });
}

/** Appends host-sized items until the transcript holds `target` bytes (a little under). */
const fill = (store: TaskStore, target: number, turn = 0) => {
  for (let i = 0; ; i++) {
    const shell = storedItemBytes({ id: `fill-${i}`, type: 'message', role: 'assistant', content: '' });
    const room = target - store.transcript.bytes();
    if (room <= shell) return;
    const content = 'x'.repeat(Math.min(MAX_ITEM_BYTES - 1_000, room - shell));
    expect(store.transcript.append([{ id: `fill-${i}`, type: 'message', role: 'assistant', content }], turn).status).toBe('ok');
  }
};

describe('the mailbox keeps the transcript cap', () => {
  it('answers 413 naming text for a follow-up that would pass the cap, records nothing, and the task can still begin a turn', async () => {
    const id = await readyTask();
    const big = 'x'.repeat(MAX_ITEM_BYTES - 1_000);
    for (let i = 0; i < 4; i++) expect((await api('POST', `/tasks/${id}/transcript`, { body: { items: [{ id: `big-${i}`, type: 'message', role: 'assistant', content: big }] } })).status).toBe(200);

    const text = 'y'.repeat(MAX_MAILBOX_TEXT_CHARS);
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      const res = await api('POST', `/tasks/${id}/mailbox`, { body: { from: 'ada', text } });
      if (res.status === 201) accepted++;
      else refused = res;
    }
    expect(accepted).toBeGreaterThan(0);
    expect(refused?.status).toBe(413);
    expect(refused?.json.error?.code).toBe('payload_too_large');
    expect(refused?.json.error?.message).toMatch(/^text: appending \d+ bytes would bring the transcript to \d+, over its cap of 4194304 bytes; nothing was appended/);
    expect(await transcriptBytes(id)).toBeLessThanOrEqual(MAX_TRANSCRIPT_BYTES);
    // Nothing of the refused follow-up is kept: the mailbox counts only what the transcript holds.
    const described = await api('GET', `/tasks/${id}`);
    expect(described.json['mailbox']).toMatchObject({ count: accepted, lastItemId: `local:mailbox:${accepted}` });
    // Every follow-up accepted will be read: the next turn begins, and holds them.
    const turn = await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } });
    expect(turn.status, JSON.stringify(turn.json.error)).toBe(200);
  });

  it('accepts follow-ups while they fit and refuses the one that would not, recording nothing of it, in the object itself', async () => {
    await inFreshObject({}, async ({ store, mailbox, ledger }) => {
      await ledger.begin(0);
      fill(store, MAX_TRANSCRIPT_BYTES - 30_000);
      let k = 0;
      while (store.transcript.bytes() < MAX_TRANSCRIPT_BYTES - 3_000) expect(await mailbox.post({ from: 'ada', text: 'z'.repeat(1_000) }, ++k)).toMatchObject({ status: 'ok' });
      const refused = await mailbox.post({ from: 'ada', text: 'z'.repeat(5_000) }, 0);
      expect(refused).toMatchObject({ status: 'too-large', field: 'text', message: expect.stringMatching(OVER_CAP) });
      expect(mailbox.summary().count).toBe(k);
      expect(store.transcript.bytes()).toBeLessThanOrEqual(MAX_TRANSCRIPT_BYTES);
    });
  });
});

describe('a turn’s context item keeps the transcript cap', () => {
  it('stores neither record nor item for a later turn whose context would pass the cap', async () => {
    await inFreshObject({ 1: 'c'.repeat(300_000) }, async ({ store, ledger }) => {
      await ledger.begin(0);
      fill(store, MAX_TRANSCRIPT_BYTES - 100_000);
      const before = store.transcript.bytes();
      expect(await ledger.begin(1)).toMatchObject({ status: 'too-large', message: expect.stringMatching(OVER_CAP) });
      expect(store.turn(1)).toBeUndefined();
      expect(store.hasItem(contextItemId(1))).toBe(false);
      expect(store.transcript.bytes()).toBe(before);
    });
  });

  it('refuses turn 0 when follow-ups before it left no room for the task item, and the task fails with that reason', async () => {
    await inFreshObject({ 0: 't'.repeat(200_000) }, async ({ store, ledger }) => {
      fill(store, MAX_TRANSCRIPT_BYTES - 50_000);
      expect(await ledger.begin(0)).toMatchObject({ status: 'too-large', message: expect.stringMatching(OVER_CAP) });
      expect(store.turn(0)).toBeUndefined();
    });
  });

  it('keeps the room a stored turn owes its item: a follow-up cannot take it between the record and the item', async () => {
    await inFreshObject({ 1: 'c'.repeat(100_000) }, async ({ store, mailbox, sql }) => {
      const crashing = (point: string) => {
        if (point === 'after-turn-record') throw new Error('crash');
      };
      const assemble = async (_task: TaskRow, turn: number) => record(turn, turn === 1 ? 'c'.repeat(100_000) : 'task');
      await new TurnLedger({ store, assemble }).begin(0);
      fill(store, MAX_TRANSCRIPT_BYTES - 130_000, 0);
      await expect(new TurnLedger({ store, assemble, crash: crashing }).begin(1)).rejects.toThrow('crash');
      expect(store.turn(1)).toBeDefined();
      // 130 KB are free, but 100 KB of them belong to turn 1's item: a 45 KB follow-up is refused.
      expect(await mailbox.post({ from: 'ada', text: '€'.repeat(15_000) }, 0)).toMatchObject({ status: 'too-large', field: 'text' });
      expect(await new TurnLedger({ store, assemble }).begin(1)).toMatchObject({ status: 'ok', path: 'repaired' });
      expect(Number(sql.exec('SELECT COUNT(*) AS n FROM transcript WHERE item_id = ?', contextItemId(1)).one()['n'])).toBe(1);
      expect(store.transcript.bytes()).toBeLessThanOrEqual(MAX_TRANSCRIPT_BYTES);
    });
  });

  it("reads no stored record's item while the records' bytes leave room, and reads them once they could matter", async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const statements: string[] = [];
      const sql = state.storage.sql;
      const counting = new Proxy(sql, {
        get(target, key) {
          if (key === 'exec') return (query: string, ...bindings: unknown[]) => (statements.push(query), target.exec(query, ...bindings));
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const store = taskStoreOf(counting);
      store.insertTask('t', request, 0, 1);
      const assemble = async (_task: TaskRow, turn: number) => record(turn, `${'c'.repeat(60_000)} ${turn}`);
      for (let turn = 0; turn < 5; turn++) expect(await new TurnLedger({ store, assemble }).begin(turn)).toMatchObject({ status: 'ok' });
      const readsOwed = () => statements.filter((query) => query.includes("json_extract(record, '$.item')")).length;
      const mailbox = new Mailbox(counting, store);
      statements.length = 0;
      expect(await mailbox.post({ from: 'ada', text: 'A small follow-up.' }, 4)).toMatchObject({ status: 'ok' });
      expect(readsOwed()).toBe(0);
      // Near the cap the records' bytes no longer leave room: what they owe is read, and nothing is.
      fill(store, MAX_TRANSCRIPT_BYTES - 100_000, 4);
      statements.length = 0;
      expect(await mailbox.post({ from: 'ada', text: 'Another small follow-up.' }, 4)).toMatchObject({ status: 'ok' });
      expect(readsOwed()).toBe(1);
    });
  });
});
