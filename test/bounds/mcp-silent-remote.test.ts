/**
 * MCP tool calls while the task's git host takes requests and never answers: each answers within
 * its bound with what happened, as a result the model can act on, and the Worker keeps answering.
 */
import { runInDurableObject } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { FILE_READ_DEADLINE_MS } from '../../durable-objects/task-files.ts';
import { api, SETTLE_GUARD_MS } from '../support/api.ts';
import { holdTimers } from '../support/held-timers.ts';
import { callTool, connectMcp, type McpConnection } from '../support/mcp-client.ts';
import { overdue, seenByGitHost, stubOf } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const head = () => inject('gitHttpFixtures').sample.head;

let acme: McpConnection;
beforeAll(async () => {
  acme = await connectMcp();
});
afterAll(async () => {
  await acme.close();
});

describe('MCP tools against a git host that never answers', () => {
  // assemble_context waits for the task to settle (issue 55 item 7): here its bounded attempts,
  // each stopped at the assembly deadline, end in a failure that names the step.
  it('assemble_context answers the task id and its failure once its bounded attempts end, naming the step', async () => {
    const repo = `${base()}/_silent/sample.git`;
    const result = await callTool(acme.client, 'assemble_context', { repo, request: 'Explain the build.' });
    const taskId = String(result.structured['taskId']);
    expect(result.structured).toMatchObject({ status: 'failed', reason: expect.stringContaining(overdue(`resolving HEAD of ${repo}`)) });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`Groundwork task ${taskId} failed`);
    expect((await api('GET', '/health')).status).toBe(200);
    // Nothing was pinned, so there is nothing to compare yet: said as such.
    const freshness = await callTool(acme.client, 'check_freshness', { taskId });
    expect(freshness.isError).toBe(true);
    expect(freshness.text).toContain('has not pinned a commit yet');
  });

  it('read_skill of a pinned task whose pack never comes fails at its deadline, naming it', async () => {
    // Tagged, so the server records this test's requests, which it holds.
    const tag = crypto.randomUUID();
    const repo = `${base()}/_tag/${tag}/_silent-pack/sample.git`;
    const result = await callTool(acme.client, 'assemble_context', { repo, ref: head(), request: 'Review this.' });
    const taskId = String(result.structured['taskId']);
    expect(result.structured['status']).toBe('failed');
    // The read's deadline (the production 10 s) is held and fired once the host holds the read's
    // pack request: the read then waits on nothing but it, however slow the machine.
    const read = holdTimers({ deadline: { from: 'src/lib/deadline.ts', ms: FILE_READ_DEADLINE_MS } });
    try {
      const skill = callTool(acme.client, 'read_skill', { taskId, name: 'review' });
      await vi.waitFor(
        async () => {
          // One pack request of each of the task's three attempts, then the read's.
          expect((await seenByGitHost(tag)).filter((request) => request.held)).toHaveLength(4);
          expect(read.held.deadline.count).toBe(1);
        },
        { timeout: SETTLE_GUARD_MS },
      );
      await runInDurableObject(stubOf(taskId), () => read.held.deadline.fire());
      const answer = await skill;
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain(`reading skill review at ${head()} did not finish within 10000 ms`);
    } finally {
      read.release();
    }
    // The task's bounded attempts run on the clock (1 s each and their backoff): a harness bound past them.
  }, 60_000);
});
