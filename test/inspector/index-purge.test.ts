/**
 * The tenant's task index deletes the rows of expired tasks on the first write after each purge
 * interval, not on every write: a burst of reports pays for one purge. An expired row is never
 * listed in between.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PURGE_EVERY_MS } from '../../durable-objects/task-index.ts';
import type { TaskIndexRow } from '../../src/tasks/task-index.ts';

const HOUR = 3_600_000;

function row(taskId: string, createdAt: number, expiresAt: number): TaskIndexRow {
  return { taskId, tenant: 'api:purge', seq: 1, status: 'ready', reason: null, origin: 'api', repo: 'acme/widgets', agent: 'entry', request: 'r', commit: null, createdAt, updatedAt: createdAt, expiresAt };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('expired rows of the task index', () => {
  it('are deleted by the first write of an instance and by the first write after each interval, and never listed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const stub = env.TASK_INDEX.get(env.TASK_INDEX.newUniqueId());
    await runInDurableObject(stub, async (index, state) => {
      const stored = () => state.storage.sql.exec<{ task_id: string }>('SELECT task_id FROM tasks ORDER BY task_id').toArray().map((r) => r.task_id);
      const listed = async () => (await index.list({ now: Date.now(), limit: 50 })).map((r) => r.taskId);
      const id = (c: string) => c.repeat(64);

      // Written before any purge: it expires a minute from now.
      await index.record(row(id('a'), start, start + 60_000));
      await index.record(row(id('b'), start, start + 10 * HOUR));
      vi.setSystemTime(start + 120_000);
      await index.record(row(id('c'), start + 120_000, start + 10 * HOUR));
      // Within the interval: the expired row stays stored, and is not listed.
      expect(stored()).toEqual([id('a'), id('b'), id('c')]);
      expect(await listed()).toEqual([id('c'), id('b')]);

      vi.setSystemTime(start + PURGE_EVERY_MS + 1);
      await index.record(row(id('d'), start + PURGE_EVERY_MS, start + 10 * HOUR));
      expect(stored()).toEqual([id('b'), id('c'), id('d')]);
    });
  });
});
