import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { PullRequestEntry } from '../../durable-objects/pull-request-entry.ts';
import { TaskStore, type TaskRow } from '../../durable-objects/task-store.ts';
import { durablePullRequestIndex } from '../../src/tasks/durable-pull-request-index.ts';
import type { PullRequestIndex, PullRequestKey, Routed } from '../../src/tasks/pull-request-index.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';

const PR: PullRequestKey = { installationId: 77, repo: 'acme/widgets', number: 12 };

/** A pull request index that refuses entries while `down`, and keeps what it was sent. */
function flakyIndex(): PullRequestIndex & { down: boolean; entries: Array<{ delivery: string; routed: Routed; createdAt: number | undefined }> } {
  const index = {
    down: true,
    entries: [] as Array<{ delivery: string; routed: Routed; createdAt: number | undefined }>,
    lookup: async () => ({ latest: null, routed: null, place: 0 }),
    record: async (_pr: PullRequestKey, delivery: string, routed: Routed, createdAt?: number) => {
      if (index.down) throw new Error('pull request object unavailable');
      index.entries.push({ delivery, routed, createdAt });
      return { previous: null };
    },
  };
  return index;
}

function inNewTask(body: (state: DurableObjectState, task: TaskRow) => Promise<void>): Promise<void> {
  return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
    const store = new TaskStore(state.storage.sql);
    store.insertTask('e'.repeat(64), TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request: 'List me.' }), 5_000, 86_400_000);
    const task = store.task();
    if (!task) throw new Error('no task');
    await body(state, task);
  });
}

describe("a review task's entry in its pull request's index", () => {
  it('stays owed while the index cannot be reached, then is made once, with the time the task was created', async () => {
    await inNewTask(async (state, task) => {
      const index = flakyIndex();
      const entry = new PullRequestEntry(state.storage.sql, () => index);
      expect(entry.pending()).toBe(false);
      expect(await entry.record(task)).toBe(true);

      entry.hold({ pullRequest: PR, delivery: 'github-event:pull_request:abc' });
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      expect(await entry.record(task)).toBe(false);
      expect(warn.mock.calls[0]?.[0]).toMatch(/pull request #12 of acme\/widgets does not list it yet: pull request object unavailable/);
      warn.mockRestore();
      expect(entry.pending()).toBe(true);

      index.down = false;
      expect(await entry.record(task)).toBe(true);
      expect(await entry.record(task)).toBe(true);
      expect(entry.pending()).toBe(false);
      expect(index.entries).toEqual([{ delivery: 'github-event:pull_request:abc', routed: { kind: 'task', taskId: 'e'.repeat(64) }, createdAt: 5_000 }]);
    });
  });

  it('is made from the alarm of a finished task that still owes it', async () => {
    const pr = { ...PR, number: 13 };
    const id = env.TASKS.newUniqueId();
    const stub = env.TASKS.get(id);
    const expires = Date.now() + 86_400_000;
    await runInDurableObject(stub, async (_, state) => {
      const store = new TaskStore(state.storage.sql);
      const now = Date.now();
      store.insertTask(id.toString(), TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request: 'Finished, not listed.' }), now, expires);
      store.setStatus('ready', null, now);
      // As an isolate that died between the task's last report and its entry would leave it.
      new PullRequestEntry(state.storage.sql, () => flakyIndex()).hold({ pullRequest: pr, delivery: 'github-event:pull_request:def' });
      // An hour ahead, so the runtime never fires it before the test runs it (an alarm armed for
      // now raced runDurableObjectAlarm); the alarm reads the task, not when it was armed.
      await state.storage.setAlarm(now + 3_600_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await durablePullRequestIndex(env).lookup(pr, 'github-event:pull_request:def')).toMatchObject({ latest: id.toString(), routed: { kind: 'task', taskId: id.toString() } });
    // Made, so retention is what the alarm waits for now.
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(expires);
  });
});
