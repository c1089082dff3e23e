/**
 * Freshness of the rule set for a pull request review, against the GitHub API test server: the
 * base branch the review is pinned at gets a push that changes what applies in every way freshness
 * tells apart; the read-back (REST), the later turn, the MCP tool and the inspector all say it,
 * and the later turn reads the new base ahead in the one request that lists it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FreshnessReportSchema } from '../../src/freshness/report.ts';
import { TaskDescriptionSchema, TurnResultSchema } from '../../src/tasks/task-results.ts';
import { api } from '../support/api.ts';
import { githubFixture, openPullRequest, pushToBranch } from '../support/github-api-client.ts';
import { callTool, connectMcp, type McpConnection } from '../support/mcp-client.ts';
import { HEAD_RULES, PIN_RULES, ruleSetLines } from '../support/rule-set-changes.ts';
import { openPage, textOf } from '../inspector/support.ts';
import { checkRunsOf, post, pullRequestEvent, settledTask, signedDelivery, taskStub, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;
const GUARD_MS = 30_000;

let mcp: McpConnection;
beforeAll(async () => {
  mcp = await connectMcp();
  // Listed once, so the SDK client checks every check_freshness answer below, a changed rule set
  // with its changes included, against the tool's output schema (src/mcp/tool-outputs.ts).
  await mcp.client.listTools();
});
afterAll(async () => {
  await mcp.close();
});

async function beginTurn(id: string, turn: number) {
  const result = TurnResultSchema.parse(await taskStub(id).beginTurn(tenant, turn));
  if (result.status !== 'ok') throw new Error(`turn ${turn}: ${result.status}`);
  return result.turn;
}

/** A review of a pull request that adds src/app.ts, its base a branch of its own holding PIN_RULES. */
async function reviewTask() {
  const tag = crypto.randomUUID().slice(0, 8);
  const baseRef = `rs-${tag}-base`;
  const headRef = `rs-${tag}-head`;
  const base = await pushToBranch(baseRef, PIN_RULES, { from: 'main' });
  const head = await pushToBranch(headRef, { 'src/app.ts': `export const tag = '${tag}';\n` }, { from: baseRef });
  const number = await openPullRequest({ base: { ref: baseRef, rev: baseRef }, head: { ref: headRef, rev: headRef } });
  const opened = pullRequestEvent('opened', { number, baseRef, baseSha: base, headRef, headSha: head });
  const accepted = await post(WEBHOOK_URL, await signedDelivery(opened, { event: 'pull_request' }));
  expect(accepted.status).toBe(202);
  const { taskId } = await accepted.json<{ taskId: string }>();
  // A hang guard only: this test does the work of four, so it has the time of four.
  expect(await settledTask(taskId, tenant, GUARD_MS)).toMatchObject({ status: 'ready', commit: base });
  return { taskId, baseRef, base };
}

describe('freshness of the rule set of a pull request review, against the GitHub API', () => {
  it('names every kind of change to the rules of the changed files, on every surface, and brings what now applies', { timeout: 4 * GUARD_MS }, async () => {
    const { taskId, baseRef, base } = await reviewTask();
    const moved = await pushToBranch(baseRef, HEAD_RULES);
    const lines = ruleSetLines('src/app.ts', 'src/app.ts');

    const res = await api('GET', `/tasks/${taskId}/freshness`);
    expect(res.status).toBe(200);
    const report = FreshnessReportSchema.parse(res.json);
    expect(report).toMatchObject({ commit: base, ref: baseRef, current: moved, moved: true, ruleSet: { status: 'changed' } });
    expect(report.ruleSet?.changes.map((change) => change.line)).toEqual(lines);

    const turn = await beginTurn(taskId, 1);
    const item = turn.items.at(-1);
    const content = item?.type === 'context' ? item.content : '';
    for (const line of lines) expect(content).toContain(`- ${line}\n`);
    expect(turn.entries.filter((entry) => entry.source.path !== undefined).map((entry) => [entry.title, entry.source.revision])).toEqual([
      ['.github/instructions/api.instructions.md', moved],
      ['docs/new.md', moved],
      ['src/AGENTS.override.md', moved],
    ]);
    // The later turn's GitHub reads: the base resolved and the pull request read. The new base's tree
    // and rule files come from what the read-back read ahead with turn 0's plan (kept in the KV under
    // it): both sides of the comparison, the sources and the rule set, read the new base once.
    const described = TaskDescriptionSchema.parse(await taskStub(taskId).describe(tenant));
    expect(described.turns.find((t) => t.turn === 1)?.github?.requests).toMatchObject({ rest: 2, graphql: 0 });

    const tool = await callTool(mcp.client, 'check_freshness', { taskId });
    expect(tool.isError, tool.text).toBeFalsy();
    for (const line of lines) expect(tool.text).toContain(`- ${line}\n`);

    const [run] = await checkRunsOf(taskId);
    const { details_url: detailsUrl } = z.object({ details_url: z.string() }).parse(run?.body);
    const link = new URL(detailsUrl);
    link.searchParams.set('freshness', '1');
    const page = await openPage(link.href);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toMatch(/Rules that apply\s*11 changes/);
    const rows = [...page.html.matchAll(/<tr data-change="([a-z-]+)">((?:(?!<\/tr>).)*)<\/tr>/g)].map((m) => textOf((m[2] ?? '').split('</td>')[3] ?? ''));
    expect(rows).toEqual(lines);
    // Files are linked where they are: an added one at the new base, a deleted one at the pin.
    expect(page.html).toContain(`/${fx.owner}/${fx.repo}/blob/${moved}/src/AGENTS.override.md"`);
    expect(page.html).toContain(`/${fx.owner}/${fx.repo}/blob/${base}/docs/gone.md"`);
  });
});
