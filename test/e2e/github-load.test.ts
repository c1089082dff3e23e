import { env } from 'cloudflare:workers';
import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { afterEach, expect, it, vi } from 'vitest';
import { intakeStub } from '../../src/tasks/task-intake.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { checkRunsOf, post, pullRequestOpened, settledTask, signedDelivery, WEBHOOK_URL } from './support.ts';

const UNIQUE = 48;
const tenant = `github:${githubFixture().installationId}`;

afterEach(() => {
  vi.restoreAllMocks();
});

it('creates exactly one Task object per unique delivery when 60 signed deliveries with 20% duplicates arrive at once', async () => {
  // A repository the GitHub API server does not serve: every task fails at once (its tree is a
  // 404, which no retry fixes), which keeps the test about delivery handling rather than assembly.
  const unique = Array.from({ length: UNIQUE }, (_, i) => ({
    id: crypto.randomUUID(),
    payload: pullRequestOpened({ repo: 'not-served', headSha: (i + 1).toString(16).padStart(40, '0') }),
  }));
  // The Task objects run in this isolate, so their logs land on this console.
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  // Every fourth delivery arrives once more: 48 + 12 = 60 requests, 20% of them duplicates.
  const all = [...unique, ...unique.filter((_, i) => i % 4 === 0)].sort(() => Math.random() - 0.5);
  expect(all).toHaveLength(60);

  const inits = await Promise.all(all.map((delivery) => signedDelivery(delivery.payload, { delivery: delivery.id })));
  const responses = await Promise.all(inits.map((init) => post(WEBHOOK_URL, init)));
  const bodies = await Promise.all(responses.map((response) => response.json<{ taskId: string; duplicate: boolean }>()));

  expect(responses.map((response) => response.status)).toEqual(all.map(() => 202));
  const idsByDelivery = new Map<string, Set<string>>();
  all.forEach((delivery, i) => idsByDelivery.set(delivery.id, (idsByDelivery.get(delivery.id) ?? new Set()).add(bodies[i]?.taskId ?? '')));
  expect([...idsByDelivery.values()].map((ids) => ids.size)).toEqual(unique.map(() => 1));
  const taskIds = new Set(bodies.map((body) => body.taskId));
  expect(taskIds.size).toBe(UNIQUE);
  expect(bodies.filter((body) => body.duplicate)).toHaveLength(all.length - UNIQUE);
  // Every task has ended before the test does, so no alarm runs after teardown.
  const tasks = await Promise.all([...taskIds].map((id) => settledTask(id, tenant, 30_000)));
  // Storage is this file's own, so these are all the Task objects that exist, and the intake
  // shards (one per first hex digit of a task id) hold one delivery per task.
  expect((await listDurableObjectIds(env.TASKS)).map((id) => id.toString()).sort()).toEqual([...taskIds].sort());
  const stored = await Promise.all([...new Set([...taskIds].map((id) => id.charAt(0)))].map((digit) =>
    runInDurableObject(intakeStub(env, digit), (_, state) => state.storage.sql.exec<{ task_id: string }>('SELECT task_id FROM deliveries').toArray().map((row) => row.task_id)),
  ));
  expect(stored.flat().sort()).toEqual([...taskIds].sort());
  expect(tasks.map((task) => [task.status, task.attempts])).toEqual(tasks.map(() => ['failed', 1]));
  for (const task of tasks) expect(task.reason).toMatch(/^could not read github:\S+\/acme\/not-served at [0-9a-f]{40}: not found \(404\)/);
  // GitHub refuses a check run on a repository the App cannot see: each task logs that, once.
  expect((await Promise.all([...taskIds].map(checkRunsOf))).flat()).toEqual([]);
  const refused = errors.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('notification failed: not found (404): check run on acme/not-served@'));
  expect(refused).toHaveLength(UNIQUE);
}, 60_000);
