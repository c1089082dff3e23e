import { describe, expect, it } from 'vitest';
import { FreshnessResultSchema, TaskDescriptionSchema, TurnResultSchema } from '../../src/tasks/task-results.ts';
import { gitBlobOid } from '../support/memory-tree.ts';
import { githubFixture, pushToBranch } from '../support/github-api-client.ts';
import { post, pullRequestEvent, settledTask, signedDelivery, taskStub, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;
const pull = fx.movingPull;

async function beginTurn(id: string, turn: number) {
  // RPC types cannot carry the turn's open JSON, so the answer is parsed as the routes do.
  const result = TurnResultSchema.parse(await taskStub(id).beginTurn(tenant, turn));
  if (result.status !== 'ok') throw new Error(`turn ${turn}: ${result.status}`);
  return result.turn;
}

describe('freshness of a pull request review, against the GitHub API', () => {
  it('says nothing while nothing moved, then names the changed rules and the moved head after pushes to base and head', async () => {
    const opened = pullRequestEvent('opened', { number: pull.number, baseRef: pull.baseRef, baseSha: fx.commits.first, headRef: pull.headRef, headSha: fx.commits.head });
    const accepted = await post(WEBHOOK_URL, await signedDelivery(opened, { event: 'pull_request' }));
    const { taskId } = await accepted.json<{ taskId: string }>();
    expect(await settledTask(taskId, tenant)).toMatchObject({ status: 'ready', commit: fx.commits.first });

    const quiet = await beginTurn(taskId, 1);
    expect(quiet.items.map((item) => item.id)).toEqual(['local:task']);
    expect(quiet.providers.find((p) => p.name === 'freshness')).toMatchObject({ outcome: 'empty', reason: `${pull.baseRef} has not moved from ${fx.commits.first.slice(0, 7)}` });
    // What a quiet later turn costs: the base branch resolved and the pull request read. The
    // pinned commit's reads (the settings file among them) come from what turn 0 read ahead.
    const described = TaskDescriptionSchema.parse(await taskStub(taskId).describe(tenant));
    expect(described.turns.find((t) => t.turn === 1)?.github?.requests).toMatchObject({ rest: 2, graphql: 0 });

    const rules = '# Rules at depth 0\n\nThird edition: run the linter too.\n';
    const base = await pushToBranch(pull.baseRef, { 'AGENTS.md': rules });
    const head = await pushToBranch(pull.headRef, { 'src/feature.ts': 'export const feature = 2;\n' });

    const turn = await beginTurn(taskId, 2);
    expect(turn.items.map((item) => item.id)).toEqual(['local:task', 'local:context:2']);
    const item = turn.items.at(-1);
    const content = item?.type === 'context' ? item.content : '';
    expect(content).toContain(`${pull.baseRef} moved ${fx.commits.first.slice(0, 7)} -> ${base.slice(0, 7)} since your context was read at ${fx.commits.first.slice(0, 7)}.`);
    expect(content).toContain(`- AGENTS.md: changed (blob ${(await gitBlobOid('# Rules at depth 0\n\nFirst edition.\n')).slice(0, 7)} -> ${(await gitBlobOid(rules)).slice(0, 7)})`);
    expect(content).toContain('- skills index (.agents/skills): unchanged');
    expect(content).toContain(`Pull request #${pull.number} head moved ${fx.commits.head.slice(0, 7)} -> ${head.slice(0, 7)}: new commits were pushed after your context was built.`);

    const read = FreshnessResultSchema.parse(await taskStub(taskId).freshness(tenant));
    if (read.status !== 'ok') throw new Error(read.status);
    expect(read.report).toMatchObject({
      commit: fx.commits.first,
      ref: pull.baseRef,
      current: base,
      moved: true,
      pullRequest: { number: pull.number, head: fx.commits.head, currentHead: head, headMoved: true, baseRef: pull.baseRef, currentBaseRef: pull.baseRef, state: 'open' },
    });
    expect(read.report.sources.find((source) => source.path === 'AGENTS.md')).toMatchObject({ status: 'changed', blob: await gitBlobOid('# Rules at depth 0\n\nFirst edition.\n'), currentBlob: await gitBlobOid(rules) });

    // Told once: the next turn has nothing new to say.
    expect((await beginTurn(taskId, 3)).items.map((i) => i.id)).toEqual(['local:task', 'local:context:2']);
  });
});
