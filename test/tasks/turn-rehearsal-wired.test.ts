/**
 * A GitHub App task's first turn rehearses turn 0's code (context/turn-rehearsal) while its
 * installation token is out (issue 56): the wiring's `prepare` hands the isolate's rehearsal the
 * registry, the task's agent and the clients its check run reports on, and lets its reads run once
 * the turn's next request is out. Counted, never timed: the token's answer is held until the
 * rehearsal is asked for, so the turn can only be ready if it was asked for while the token was out
 * (without it the task never gets its token, and the test fails at its timeout).
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskObject } from '../../durable-objects/task.ts';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import * as rehearsal from '../../durable-objects/first-turn-rehearsal.ts';
import { getConfig } from '../../src/env.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import { holdTaskAlarmsInEachTest } from '../support/held-alarms.ts';

const fx = githubFixture();
const TOKEN_PATH = /\/app\/installations\/\d+\/access_tokens$/;
const outbound = globalThis.fetch.bind(globalThis);

holdTaskAlarmsInEachTest({ starts: 'run' });
afterEach(() => vi.restoreAllMocks());

describe("a GitHub App task's first turn", () => {
  it("rehearses the turn with the task's agent while its installation token is out", async () => {
    const reviewer = resolveAgent('reviewer');
    if (!reviewer.ok) throw new Error(reviewer.error);
    const scope = createApiScope();
    const events: string[] = [];
    let asked: () => void = () => undefined;
    const rehearsalAsked = new Promise<void>((resolve) => (asked = resolve));
    const rehearse = rehearsal.rehearseFirstTurn;
    const calls = vi.spyOn(rehearsal, 'rehearseFirstTurn').mockImplementation((input) => {
      events.push(`rehearsal ${input.agent.name} for ${input.clients.join(', ')}`);
      // Its reads wait for the turn's next request to be out (the pull request's first read).
      void input.readsAfter?.().then(() => events.push('next request out'));
      asked();
      return rehearse(input);
    });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.startsWith(scope.baseUrl) && TOKEN_PATH.test(url)) {
        events.push('token');
        const answer = await outbound(input, init);
        await rehearsalAsked;
        events.push('token answered');
        return answer;
      }
      if (url.startsWith(scope.baseUrl)) events.push('github');
      return outbound(input, init);
    });
    const described = await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const task = new TaskObject(state, Object.assign({}, env, { GITHUB_API_URL: scope.baseUrl }));
      const tenant = `github:${fx.installationId}`;
      await task.create({ origin: 'github', tenant, repo: `${fx.owner}/${fx.repo}`, ref: 'main', request: 'Review the change.', githubInstallationId: fx.installationId }, reviewer.agent);
      return TaskDescriptionSchema.parse(await task.describe(tenant, { waitMs: 60_000 }));
    });
    expect(described.status, described.reason ?? '').toBe('ready');
    expect(calls).toHaveBeenCalledTimes(1);
    // The clients are the deployment's CHECK_RUN_CLIENTS, whose matrix a check run reports.
    expect(events.filter((event) => event !== 'github' && event !== 'next request out')).toEqual(['token', `rehearsal reviewer for ${getConfig(env).CHECK_RUN_CLIENTS.join(', ')}`, 'token answered']);
    expect(events.filter((event) => event === 'next request out')).toHaveLength(1);
    expect(events.indexOf('next request out')).toBeGreaterThan(events.indexOf('github'));
    expect(events.indexOf('github')).toBeGreaterThan(events.indexOf('token answered'));
  });
});
