import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { TaskIndexSync, type TaskIndexWriter } from '../../durable-objects/task-index-sync.ts';
import { TaskStore, type TaskRow } from '../../durable-objects/task-store.ts';
import type { TaskIndexRow } from '../../src/tasks/task-index.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';

/** An index that refuses reports while `down`, and keeps what it was sent. */
function flakyIndex(): TaskIndexWriter & { down: boolean; rows: TaskIndexRow[] } {
  const index = {
    down: true,
    rows: [] as TaskIndexRow[],
    record: async (row: TaskIndexRow) => {
      if (index.down) throw new Error('index unavailable');
      index.rows.push(row);
      return 'stored';
    },
  };
  return index;
}

/** Runs `body` inside a new Task object holding one stored task. */
function inNewTask(request: string, body: (state: DurableObjectState, task: TaskRow) => Promise<void>): Promise<void> {
  return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
    const store = new TaskStore(state.storage.sql);
    const now = Date.now();
    store.insertTask('f'.repeat(64), TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request }), now, now + 86_400_000);
    const task = store.task();
    if (!task) throw new Error('no task');
    await body(state, task);
  });
}

describe('a task reporting to its tenant’s index', () => {
  it('stays behind after a failed report and catches up with a higher sequence number on the next', async () => {
    await inNewTask('Index me.', async (state, task) => {
      const index = flakyIndex();
      const sync = new TaskIndexSync(state.storage.sql, () => index);

      expect(sync.behind()).toBe(true);
      expect(await sync.report(task)).toBe(false);
      expect(sync.behind()).toBe(true);
      expect(index.rows).toEqual([]);

      index.down = false;
      expect(await sync.report(task)).toBe(true);
      expect(sync.behind()).toBe(false);
      expect(index.rows.map((row) => [row.seq, row.tenant, row.status, row.request])).toEqual([[2, 'api:acme', 'pending', 'Index me.']]);
    });
  });

  it('keeps the highest acknowledgement when two reports are answered out of order', async () => {
    await inNewTask('Race me.', async (state, task) => {
      const answers: Array<{ seq: number; answer: () => void }> = [];
      const sync = new TaskIndexSync(state.storage.sql, () => ({
        record: (row: TaskIndexRow) => new Promise<string>((resolve) => answers.push({ seq: row.seq, answer: () => resolve('stored') })),
      }));

      const first = sync.report(task);
      const second = sync.report(task);
      expect(answers.map((pending) => pending.seq)).toEqual([1, 2]);
      answers[1]?.answer();
      expect(await second).toBe(true);
      expect(sync.behind()).toBe(false);
      answers[0]?.answer();
      expect(await first).toBe(true);
      expect(sync.behind()).toBe(false);
      // A third report numbers itself past both.
      void sync.report(task);
      expect(answers.map((pending) => pending.seq)).toEqual([1, 2, 3]);
      expect(sync.behind()).toBe(true);
    });
  });
});
