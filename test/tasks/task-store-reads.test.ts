/**
 * Every RPC and alarm step of a Task object reads its task row, so the row's JSON documents (the
 * request and the agent configuration, which never change after the insert) are parsed once per
 * text and shared, frozen, by every reader; a column that changes or goes bad is read afresh.
 * Stored turns, which finishing a task reads several times, likewise.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { TaskStore, type TurnRecord } from '../../durable-objects/task-store.ts';
import { agentHash, resolveAgent } from '../../src/context/agent-catalog.ts';
import { TASK_ITEM_ID, TranscriptItemSchema, type TranscriptItem } from '../../src/context/transcript.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';

const request = TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', request: 'Explain the build.' });
const resolved = resolveAgent('reviewer');
if (!resolved.ok) throw new Error(resolved.error);
const agent = resolved.agent;

function inFreshStore<T>(body: (store: TaskStore, sql: SqlStorage) => T | Promise<T>): Promise<T> {
  return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
    const store = new TaskStore(state.storage.sql);
    store.insertTask('t', request, 0, 1, { ...agent });
    return body(store, state.storage.sql);
  });
}

describe('reading the task row', () => {
  it('parses the request and agent once and hands every reader the same frozen documents', async () => {
    await inFreshStore((store) => {
      const [first, second] = [store.task(), store.task()];
      expect(first?.request).toEqual(request);
      expect(second?.request).toBe(first?.request);
      expect(second?.agent_config).toBe(first?.agent_config);
      expect(Object.isFrozen(first?.request)).toBe(true);
      expect(Object.isFrozen(first?.agent_config?.tools[0])).toBe(true);
      // A reader that changed the shared request would change it for every later reader.
      expect(() => ((first?.request as { request: string }).request = 'other')).toThrow(TypeError);
      expect(store.task()?.request.request).toBe('Explain the build.');
    });
  });

  it('reads a fresh object from the same stored text as the one the insert kept', async () => {
    await inFreshStore((store, sql) => {
      const fromInsert = store.task();
      const other = new TaskStore(sql).task();
      expect(other?.request).toEqual(fromInsert?.request);
      expect(other?.agent_config).toEqual(fromInsert?.agent_config);
    });
  });

  it('reads a changed column again, and throws on every read of a corrupt one', async () => {
    await inFreshStore((store, sql) => {
      const changed = JSON.stringify({ ...request, request: 'Changed.' });
      sql.exec('UPDATE task SET request = ? WHERE singleton = 1', changed);
      expect(store.task()?.request.request).toBe('Changed.');
      sql.exec('UPDATE task SET request = ? WHERE singleton = 1', JSON.stringify({ origin: 'nowhere' }));
      expect(() => store.task()).toThrow();
      expect(() => store.task()).toThrow();
      sql.exec('UPDATE task SET agent_config = ? WHERE singleton = 1', '{"name":1}');
      sql.exec('UPDATE task SET request = ? WHERE singleton = 1', changed);
      expect(() => store.task()).toThrow();
    });
  });
});

describe('reading a stored turn', () => {
  const record: TurnRecord = { turn: 0, digest: 'd', chars: 0, tokens: 0, item: null, agent: 'reviewer', commit: null, repository: null, system: [], tools: [], providers: [], entries: [], createdAt: 0 };

  it('parses a turn once and hands every reader (turn and turns) the same frozen record', async () => {
    await inFreshStore((store) => {
      store.putTurn(record);
      const first = store.turn(0);
      expect(first).toEqual(record);
      expect(store.turn(0)).toBe(first);
      expect(store.turns()[0]).toBe(first);
      expect(Object.isFrozen(first?.providers)).toBe(true);
      expect(() => ((first as { digest: string }).digest = 'other')).toThrow(TypeError);
      expect(store.turn(0)?.digest).toBe('d');
    });
  });

  it('reads from another store the same record as the one the write kept', async () => {
    await inFreshStore((store, sql) => {
      const withOptional: TurnRecord = { ...record, focus: { paths: ['src'], files: [] }, moved: { through: 0, paths: [], skills: [], rules: [] } };
      store.putTurn(withOptional);
      expect(new TaskStore(sql).turn(0)).toEqual(store.turn(0));
      expect(store.turn(0)).toEqual(withOptional);
    });
  });

  it('sees a turn written anew or deleted, and throws on every read of a corrupt one', async () => {
    await inFreshStore((store, sql) => {
      store.putTurn(record);
      expect(store.turn(0)?.digest).toBe('d');
      sql.exec('UPDATE turns SET record = ? WHERE turn = 0', JSON.stringify({ ...record, digest: 'e' }));
      expect(store.turn(0)?.digest).toBe('e');
      sql.exec('UPDATE turns SET record = ? WHERE turn = 0', JSON.stringify({ turn: 'zero' }));
      expect(() => store.turn(0)).toThrow();
      expect(() => store.turns()).toThrow();
      sql.exec('DELETE FROM turns');
      expect(store.turn(0)).toBeUndefined();
      expect(store.turns()).toEqual([]);
    });
  });
});

describe("reading the transcript a turn's request holds", () => {
  const hostItem = (content: string): TranscriptItem => ({ id: TASK_ITEM_ID, type: 'message', role: 'user', content });
  const parses = () => vi.spyOn(TranscriptItemSchema, 'parse');

  it('parses no item it appended itself, and each other stored item once, handing out the same frozen item', async () => {
    await inFreshStore((store, sql) => {
      const counted = parses();
      store.transcript.append([hostItem('Fix the build.')], 0);
      const [first] = store.requestTranscript(0, TASK_ITEM_ID);
      expect(first).toEqual(hostItem('Fix the build.'));
      expect(store.requestTranscript(0, TASK_ITEM_ID)[0]).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(counted).toHaveBeenCalledTimes(0);
      // Another object over the same rows did not append them: it checks each once.
      const other = new TaskStore(sql);
      expect(other.requestTranscript(0, TASK_ITEM_ID)).toEqual([first]);
      expect(other.requestTranscript(0, TASK_ITEM_ID)).toEqual([first]);
      expect(counted).toHaveBeenCalledTimes(1);
      counted.mockRestore();
    });
  });

  it('parses an item written anew, and throws on every read of a corrupt one', async () => {
    await inFreshStore((store, sql) => {
      store.transcript.append([hostItem('Fix the build.')], 0);
      store.requestTranscript(0, TASK_ITEM_ID);
      sql.exec('UPDATE transcript SET item = ? WHERE item_id = ?', JSON.stringify(hostItem('Changed.')), TASK_ITEM_ID);
      expect(store.requestTranscript(0, TASK_ITEM_ID)).toEqual([hostItem('Changed.')]);
      sql.exec('UPDATE transcript SET item = ? WHERE item_id = ?', JSON.stringify({ id: TASK_ITEM_ID, type: 'message', role: 'system' }), TASK_ITEM_ID);
      expect(() => store.requestTranscript(0, TASK_ITEM_ID)).toThrow();
      expect(() => store.requestTranscript(0, TASK_ITEM_ID)).toThrow();
    });
  });
});

describe('agentHash', () => {
  it('hashes a frozen configuration once and an unfrozen one as it is now', async () => {
    const frozen = Object.freeze({ ...agent });
    const hash = await agentHash(frozen);
    expect(await agentHash(frozen)).toBe(hash);
    expect(await agentHash({ ...agent })).toBe(hash);
    const copy = { ...agent, tools: agent.tools.slice(0, 1) };
    const before = await agentHash(copy);
    copy.tools = agent.tools.slice(0, 2);
    expect(await agentHash(copy)).not.toBe(before);
  });
});
