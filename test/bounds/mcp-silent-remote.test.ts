/**
 * MCP tool calls while the task's git host takes requests and never answers: each answers within
 * its bound with what happened, as a result the model can act on, and the Worker keeps answering.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../support/api.ts';
import { callTool, connectMcp, type McpConnection } from '../support/mcp-client.ts';
import { overdue } from './support.ts';

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
    const repo = `${base()}/_silent-pack/sample.git`;
    const result = await callTool(acme.client, 'assemble_context', { repo, ref: head(), request: 'Review this.' });
    const taskId = String(result.structured['taskId']);
    expect(result.structured['status']).toBe('failed');
    const skill = await callTool(acme.client, 'read_skill', { taskId, name: 'review' });
    expect(skill.isError).toBe(true);
    expect(skill.text).toContain(`reading skill review at ${head()} did not finish within 10000 ms`);
    // The task's bounded attempts, then the read's own 10 s deadline: a harness bound past both.
  }, 60_000);
});
