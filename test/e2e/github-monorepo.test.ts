import { describe, expect, it } from 'vitest';
import { contextItemId } from '../../src/context/transcript.ts';
import { FocusResultSchema, TurnResultSchema } from '../../src/tasks/task-results.ts';
import { api } from '../support/api.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import { E2E_SCOPE } from './bindings.ts';
import { post, pullRequestEvent, settledTask, signedDelivery, taskStub, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;
const mono = fx.monorepoPull;

/** The monorepo pull request as GitHub announces it, with its own totals. */
function monorepoEvent(action: string) {
  const payload = pullRequestEvent(action, { number: mono.number, baseRef: mono.baseRef, baseSha: mono.base, headRef: mono.headRef, headSha: mono.head });
  Object.assign(payload.pull_request, { title: 'Touch three packages', body: 'Handlers, components and a migration.', changed_files: mono.files, additions: 4, deletions: 2 });
  return payload;
}

async function readyReview(action: string): Promise<string> {
  const accepted = await post(WEBHOOK_URL, await signedDelivery(monorepoEvent(action)));
  expect(accepted.status).toBe(202);
  const { taskId } = await accepted.json<{ taskId: string }>();
  expect(await settledTask(taskId, tenant)).toMatchObject({ status: 'ready', attempts: 1, commit: mono.base });
  return taskId;
}

async function turnOf(taskId: string, n: number) {
  const read = TurnResultSchema.parse(await taskStub(taskId).readTurn(tenant, n));
  if (read.status !== 'ok') throw new Error(`turn ${n} not readable: ${read.status}`);
  return read.turn;
}

// In order, even under --sequence.shuffle: the first test counts the GitHub requests of a cold cache
// for the base commit, which the later ones then read warm (storage is per file, not per test).
describe('a pull request touching three packages, through the Worker and the Task object', { shuffle: false }, () => {
  it("gives the reviewer every package's chain, read at the base, from one listing of the pull request's files", async () => {
    // The scope counts for the whole file: what this test asked for is the difference.
    const listed = () => createApiScope(E2E_SCOPE).count(`/pulls/${mono.number}/files`);
    const listedBefore = await listed();
    const taskId = await readyReview('opened');
    const turn = await turnOf(taskId, 0);
    expect(turn.focusPaths).toEqual(['packages/api/src/handler.ts', 'packages/db/migrations/002.sql', 'packages/web/src/app.tsx', 'packages/web/src/widgets/new.tsx']);
    const rules = turn.entries.filter((entry) => entry.provider === 'rules');
    expect(rules.map((entry) => [entry.title, entry.stability, entry.source.revision])).toEqual([
      ['AGENTS.md', 'commit', mono.base],
      ['packages/api/AGENTS.md', 'task', mono.base],
      ['packages/db/AGENTS.md', 'task', mono.base],
      ['packages/db/migrations/AGENTS.override.md', 'task', mono.base],
      ['packages/web/AGENTS.md', 'task', mono.base],
    ]);
    expect(rules.find((entry) => entry.title === 'packages/web/AGENTS.md')?.appliesTo).toEqual({ paths: ['packages/web/src/app.tsx', 'packages/web/src/widgets/new.tsx'], total: 2 });
    expect(turn.providers.find((p) => p.name === 'rules')?.reason).toContain(
      'packages/web/src/widgets/new.tsx: packages/web/src/widgets is not in the tree at this commit; the rules of packages/web/src apply',
    );
    const prompt = turn.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('Never edit a migration that shipped.');
    expect(prompt).not.toContain('not chosen: the override wins');
    // The same listing serves task facts, which shows it as before.
    expect(prompt).toContain(
      [
        'Changed files as GitHub listed them when the context was assembled (4 of 4):',
        '- packages/api/src/handler.ts: modified, +1 -1',
        '- packages/db/migrations/002.sql: added, +1 -0',
        '- packages/web/src/app.tsx: modified, +1 -1',
        '- packages/web/src/widgets/new.tsx: added, +1 -0',
      ].join('\n'),
    );
    // One listing of the files and one GraphQL read of the plan at the base, every directory in it.
    expect((await listed()) - listedBefore).toBe(1);
    const described = await settledTask(taskId, tenant);
    expect(described.turns[0]?.github).toMatchObject({ requests: { rest: 1, graphql: 1 } });
  });

  it('follows the agent into another subtree on a later turn, and keeps a tenant that may only read out', async () => {
    const taskId = await readyReview('reopened');
    const recorded = FocusResultSchema.parse(await taskStub(taskId).focusOn(tenant, { paths: ['a/b/c/file.ts'], skills: [], rules: [] }));
    expect(recorded).toEqual({ status: 'ok', paths: { recorded: ['a/b/c/file.ts'], duplicates: [] }, skills: { recorded: [], duplicates: [] }, rules: { recorded: [], duplicates: [] }, nextTurn: 1 });
    // acme is granted the installation's tasks to read them, never to change them.
    const granted = await api('POST', `/tasks/${taskId}/paths`, { tenant: 'acme', body: { paths: ['packages'] } });
    expect(granted.status).toBe(403);
    expect(granted.json.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('may read it through a grant but not change it') });

    const begun = TurnResultSchema.parse(await taskStub(taskId).beginTurn(tenant, 1));
    if (begun.status !== 'ok') throw new Error(`turn 1: ${begun.status}`);
    expect(begun.turn.entries.filter((entry) => entry.provider === 'rules').map((entry) => entry.title)).toEqual(['a/AGENTS.md', 'a/b/AGENTS.md', 'a/b/c/AGENTS.md']);
    expect(begun.turn.items.at(-1)?.id).toBe(contextItemId(1));
  });
});
