/**
 * A task's report to its index objects is bounded (task-listings INDEX_REPORT_MS): an index object
 * that never answers counts as a failed report, so a create, an attempt's outcome or an alarm
 * waiting on it goes on, and the task stays behind to report again; an answer that comes after
 * the bound still acknowledges what it recorded. Counted, never timed: the bound's timer is held
 * and fired by the test.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
// Zero-delay turns of the event loop, which the hold leaves alone: counted, never a time.
import { turns } from '../../durable-objects/request-signal.ts';
import { INDEX_REPORT_MS, TaskListings } from '../../durable-objects/task-listings.ts';
import { TaskStore } from '../../durable-objects/task-store.ts';
import type { TaskIndexRow } from '../../src/tasks/task-index.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { holdTimers, type TimerHold } from '../support/held-timers.ts';

let hold: TimerHold<'report'> | undefined;
afterEach(() => {
  hold?.release();
  hold = undefined;
  vi.restoreAllMocks();
});

describe("a task's report to its index objects", () => {
  it('fails once its bound is over when an index object does not answer, and a late answer still acknowledges it', async () => {
    hold = holdTimers({ report: { from: 'src/lib/deadline.ts', ms: INDEX_REPORT_MS } });
    const timers = hold.held.report;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const store = new TaskStore(state.storage.sql);
      store.insertTask('e'.repeat(64), TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request: 'Index me.' }), 0, 86_400_000);
      const task = store.task();
      if (!task) throw new Error('no task');
      let answer: (() => void) | undefined;
      const rows: TaskIndexRow[] = [];
      const listings = new TaskListings(state.storage.sql, {
        tenant: () => ({ record: (row: TaskIndexRow) => new Promise<string>((resolve) => (answer = () => (rows.push(row), resolve('stored')))) }),
        pullRequest: () => {
          throw new Error('no pull request entry is owed');
        },
      });
      let settled: boolean | undefined;
      const reported = listings.report(task).then((value) => (settled = value));
      // The bound is armed as the report begins (withDeadline sets its timer at once).
      expect(timers.count).toBe(1);
      await turns(5);
      expect(settled, 'nothing answered, the bound not over: still waiting').toBeUndefined();
      timers.fire();
      expect(await reported).toBe(false);
      expect(listings.behind()).toBe(true);
      expect(warn.mock.calls.map(([message]) => String(message))).toEqual([`task ${'e'.repeat(64)}: the index objects did not answer its report within ${INDEX_REPORT_MS / 1000} s; it is sent again later`]);
      // The index answers after all: what it recorded is acknowledged, and nothing is left behind.
      answer?.();
      await turns(5);
      expect(listings.behind()).toBe(false);
      expect(rows.map((row) => row.request)).toEqual(['Index me.']);
    });
  });
});
