import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { CHECK_DEADLINE_MS } from '../../src/checks/run-check.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, SETTLE_GUARD_MS } from '../support/api.ts';
import { createApiScope, setCommitChecks } from '../support/github-api-client.ts';
import { holdTimers } from '../support/held-timers.ts';
import { E2E_SCOPE } from './bindings.ts';
import { check, pullRequestTask } from './support-checks.ts';

describe('a check against a GitHub that takes the request and never answers', () => {
  it('answers unknown at its deadline with the reason, never go, records it, and hangs up on what it gave up on', async () => {
    const task = await pullRequestTask();
    await setCommitChecks(task.head, { checkRuns: [{ name: 'build', conclusion: 'success' }] });
    const scope = createApiScope(E2E_SCOPE);
    // Only this test's pull request and head: the scope is shared with the other e2e files.
    const hung = [`/pulls/${task.number}`, `/commits/${task.head}/check-runs`];
    const matching = async () => (await scope.stats()).requests.filter((request) => hung.some((match) => request.path.includes(match)));
    const before = (await matching()).length;
    await scope.configure({ faults: hung.map((match) => ({ status: 200, times: 2, match, stall: true })) });

    // The checks' deadline (the production 10 s) is held, and fired once GitHub holds the first
    // request of each check: each check then waits on nothing but it, however slow the machine.
    const deadlines = holdTimers({ check: { from: 'src/context/deadline.ts', ms: CHECK_DEADLINE_MS } });
    const checked = Promise.all([check(task.taskId, { action: 'push' }), check(task.taskId, { action: 'report-ci' })]);
    try {
      await vi.waitFor(
        async () => {
          // push reads the pull request; report-ci its check runs and the pull request at once.
          expect((await matching()).length - before).toBe(3);
          expect(deadlines.held.check.count).toBe(2);
        },
        { timeout: SETTLE_GUARD_MS },
      );
      await runInDurableObject(env.TASKS.get(env.TASKS.idFromString(task.taskId)), () => deadlines.held.check.fire());
    } finally {
      deadlines.release();
    }
    const [push, reportCi] = await checked;
    const unfinished = `the check did not finish: no answer within ${CHECK_DEADLINE_MS} ms`;
    expect(push).toMatchObject({ action: 'push', verdict: 'unknown', reasons: [unfinished], details: { builtOn: task.head, remote: null, moved: null } });
    expect(reportCi).toMatchObject({ action: 'report-ci', verdict: 'unknown', reasons: [unfinished], details: { commit: task.head, ci: null, isHead: null } });

    const recorded = TaskDescriptionSchema.parse((await api('GET', `/tasks/${task.taskId}`)).json).checks;
    expect(recorded.recent.map((entry) => [entry.action, entry.verdict])).toEqual(expect.arrayContaining([['push', 'unknown'], ['report-ci', 'unknown']]));
    await vi.waitFor(
      async () => {
        expect((await matching()).filter((request) => request.abandoned === false)).toEqual([]);
      },
      { timeout: SETTLE_GUARD_MS },
    );
    // push read the pull request; report-ci its check runs and the pull request: one attempt each, no retry.
    expect((await matching()).length - before).toBe(3);
    // The deadline is the production one (10 s), held; the ceiling only catches a hang.
  }, 120_000);
});
