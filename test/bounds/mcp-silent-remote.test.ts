/**
 * MCP tool calls while the task's git host takes requests and never answers: each answers within
 * its bound with what happened, as a result the model can act on, and the Worker keeps answering.
 * Nothing waits on the clock: the task's attempts are ended at their held assembly deadline once
 * the host holds the attempt's request, and its retries begin from the object's alarm handler,
 * as the runtime would begin them once due (test/bounds/support).
 */
import { runInDurableObject } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import * as z from 'zod';
import { FILE_READ_DEADLINE_MS } from '../../durable-objects/task-files.ts';
import { api, SETTLE_GUARD_MS } from '../support/api.ts';
import { holdTimers } from '../support/held-timers.ts';
import { callTool, connectMcp, type McpConnection } from '../support/mcp-client.ts';
import { describeTask, endAttempt, gitHostHolds, holdDeadlines, overdue, runRetries, stubOf, type HeldDeadlines } from './support.ts';

const ListedSchema = z.object({ tasks: z.array(z.object({ id: z.string() })) });
const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const head = () => inject('gitHttpFixtures').sample.head;

let acme: McpConnection;
beforeAll(async () => {
  acme = await connectMcp();
});
afterAll(async () => {
  await acme.close();
});

/** The id of acme's one task on `repo`, once its creation has listed it. */
async function taskOn(repo: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const res = await api('GET', `/tasks?repo=${encodeURIComponent(repo)}&limit=10`);
      const { tasks } = ListedSchema.parse(res.json);
      expect(tasks).toHaveLength(1);
      return String(tasks[0]?.id);
    },
    { timeout: SETTLE_GUARD_MS },
  );
}

/**
 * Runs the three bounded attempts of the task assemble_context just created on `repo`, as the
 * other bounds tests do (test/bounds/support): the first is the one the creation began, each
 * ended at its held assembly deadline once the git host holds the attempt's one request under
 * `tag`, each retry begun from the object's alarm handler, the alarms their ends arm recorded
 * instead of armed. The creation's own alarm (due at once; it joins the first attempt) is taken
 * away if it has not come yet, so no attempt starts by itself.
 */
async function runAttempts(repo: string, tag: string, reason: string, deadlines: HeldDeadlines): Promise<string> {
  const id = await taskOn(repo);
  await runInDurableObject(stubOf(id), (_, state) => state.storage.deleteAlarm());
  const holds = gitHostHolds(tag, 1);
  await holds(1);
  expect(await describeTask(id)).toMatchObject({ status: 'assembling', attempts: 1 });
  const first = await endAttempt(id, deadlines);
  expect(first.armed, 'the first attempt arms its retry').toHaveLength(1);
  expect(await runRetries(id, reason, deadlines, holds)).toMatchObject({ status: 'failed', attempts: 3 });
  return id;
}

describe('MCP tools against a git host that never answers', () => {
  // assemble_context waits for the task to settle (issue 55 item 7): here its bounded attempts,
  // each stopped at the assembly deadline, end in a failure that names the step.
  it('assemble_context answers the task id and its failure once its bounded attempts end, naming the step', async () => {
    // Tagged, so the server records this test's requests, which it holds.
    const tag = crypto.randomUUID();
    const repo = `${base()}/_tag/${tag}/_silent/sample.git`;
    const deadlines = holdDeadlines();
    try {
      const called = callTool(acme.client, 'assemble_context', { repo, request: 'Explain the build.' });
      const id = await runAttempts(repo, tag, overdue(`resolving HEAD of ${repo}`), deadlines);
      const result = await called;
      const taskId = String(result.structured['taskId']);
      expect(taskId).toBe(id);
      expect(result.structured).toMatchObject({ status: 'failed', reason: expect.stringContaining(overdue(`resolving HEAD of ${repo}`)) });
      expect(result.isError).toBe(true);
      expect(result.text).toContain(`Groundwork task ${taskId} failed`);
      expect((await api('GET', '/health')).status).toBe(200);
      // Nothing was pinned, so there is nothing to compare yet: said as such.
      const freshness = await callTool(acme.client, 'check_freshness', { taskId });
      expect(freshness.isError).toBe(true);
      expect(freshness.text).toContain('has not pinned a commit yet');
    } finally {
      deadlines.release();
    }
  });

  it('read_skill of a pinned task whose pack never comes fails at its deadline, naming it', async () => {
    // Tagged, so the server records this test's requests, which it holds.
    const tag = crypto.randomUUID();
    const repo = `${base()}/_tag/${tag}/_silent-pack/sample.git`;
    // The attempts' deadlines, and the read's (the production 10 s): the read is fired once the
    // host holds the read's pack request, so it waits on nothing but it, however slow the machine.
    const deadlines = holdDeadlines();
    const read = holdTimers({ deadline: { from: 'src/lib/deadline.ts', ms: FILE_READ_DEADLINE_MS } });
    try {
      const called = callTool(acme.client, 'assemble_context', { repo, ref: head(), request: 'Review this.' });
      const id = await runAttempts(repo, tag, overdue(`reading ${repo} at ${head()}`), deadlines);
      const result = await called;
      const taskId = String(result.structured['taskId']);
      expect(taskId).toBe(id);
      expect(result.structured['status']).toBe('failed');
      const skill = callTool(acme.client, 'read_skill', { taskId, name: 'review' });
      // One pack request of each of the task's three attempts, then the read's.
      await gitHostHolds(tag, 1)(4);
      await vi.waitFor(() => expect(read.held.deadline.count).toBe(1), { timeout: SETTLE_GUARD_MS });
      await runInDurableObject(stubOf(taskId), () => read.held.deadline.fire());
      const answer = await skill;
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain(`reading skill review at ${head()} did not finish within 10000 ms`);
    } finally {
      read.release();
      deadlines.release();
    }
  });
});
