/**
 * `groundwork run` follows its task with the service's long poll (`GET /tasks/:id?wait=`): a
 * first read at once, then reads that wait, each answered when the task settles or at the wait's
 * end. Counted by the reads a fake of the API client answers from a script (no sleeps, no clock
 * but the test's): every status change is one line, the last comes from the read that saw it, and
 * a task that never settles is given up at the deadline, by the test's clock.
 */
import { describe, expect, it } from 'vitest';
import { FOLLOW_WAIT_SECONDS, followTask } from '../../src/cli/run/follow-task.ts';
import type { ApiClient } from '../../src/cli/run/api-client.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema, type TaskDescription } from '../../src/tasks/task-results.ts';

type Answer = { status: TaskDescription['status']; attempts?: number; reason?: string | null; afterMs: number };

function description({ status, attempts = 1, reason = null }: Answer): TaskDescription {
  return TaskDescriptionSchema.parse({
    id: 'task-1',
    status,
    reason,
    attempts,
    request: TaskRequestSchema.parse({ origin: 'cli', tenant: 'local', repo: 'file:///repo', request: 'Explain the build.' }),
    commit: null,
    createdAt: '2026-12-06T00:00:00.000Z',
    expiresAt: '2027-01-05T00:00:00.000Z',
    mailbox: { count: 0, lastItemId: null, lastAt: null },
    checks: { count: 0, dropped: 0, recent: [] },
    turns: [],
  });
}

/** The API client, answering each read with the next answer of `script`; each read moves the test's clock by its `afterMs`. */
function scripted(script: Answer[]) {
  let clock = 0;
  const reads: Array<{ waitSeconds: number | undefined }> = [];
  const api: ApiClient = {
    createTask: () => Promise.reject(new Error('not used')),
    turn: () => Promise.reject(new Error('not used')),
    beginTurn: () => Promise.reject(new Error('not used')),
    describe: async (_id, options = {}) => {
      reads.push({ waitSeconds: options.waitSeconds });
      const answer = script[Math.min(reads.length - 1, script.length - 1)];
      if (!answer) throw new Error('empty script');
      clock += answer.afterMs;
      return description(answer);
    },
  };
  return { api, reads, now: () => clock };
}

describe('following a task with the long poll', () => {
  it('reads once at once, then waits on each read, and reports each change as the read that saw it', async () => {
    const { api, reads, now } = scripted([
      { status: 'pending', afterMs: 3 },
      { status: 'assembling', afterMs: 1_000 },
      { status: 'pending', attempts: 2, reason: 'the host answered 503', afterMs: 1_000 },
      { status: 'pending', attempts: 2, reason: 'the host answered 503', afterMs: 1_000 },
      { status: 'ready', attempts: 2, afterMs: 420 },
    ]);
    const lines: string[] = [];
    expect(await followTask(api, 'task-1', (line) => lines.push(line), { now })).toEqual({ ok: true });
    expect(lines).toEqual(['pending  +3 ms', 'assembling  +1003 ms', 'pending (attempt 2; last failure: the host answered 503)  +2003 ms', 'ready (attempt 2)  +3423 ms']);
    expect(reads).toEqual([{ waitSeconds: undefined }, ...Array.from({ length: 4 }, () => ({ waitSeconds: FOLLOW_WAIT_SECONDS }))]);
  });

  it('ends at a failed task with its reason, and asks nothing after', async () => {
    const { api, reads, now } = scripted([
      { status: 'pending', afterMs: 2 },
      { status: 'failed', reason: 'ref main does not name a commit', afterMs: 30 },
    ]);
    const lines: string[] = [];
    expect(await followTask(api, 'task-1', (line) => lines.push(line), { now })).toEqual({ ok: false, reason: 'ref main does not name a commit' });
    expect(lines).toEqual(['pending  +2 ms', 'failed  +32 ms']);
    expect(reads).toHaveLength(2);
  });

  it('gives up on a task that never settles at its deadline, having asked once a wait', async () => {
    const { api, reads, now } = scripted([{ status: 'assembling', afterMs: FOLLOW_WAIT_SECONDS * 1000 }]);
    const lines: string[] = [];
    expect(await followTask(api, 'task-1', (line) => lines.push(line), { now })).toEqual({ ok: false, reason: 'still not ready after 10 minutes' });
    expect(lines).toEqual([`assembling  +${FOLLOW_WAIT_SECONDS * 1000} ms`]);
    expect(reads).toHaveLength((10 * 60) / FOLLOW_WAIT_SECONDS);
  });
});
