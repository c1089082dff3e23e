/**
 * A GitHub task's turn 0 builds what checks its answers (the read-ahead's and the providers') while
 * it waits on its first GitHub request, not after the answers come (issue 56): the assembler hands
 * `prepare` (with the task's agent, whose turn the wiring rehearses) to a timer once that request
 * is sent. Counted: the calls of `prepare` while the pull request's files are held unanswered,
 * after the turn, and on a later turn.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createTaskAssembler } from '../../durable-objects/task-assembler.ts';
import type { TaskRow } from '../../durable-objects/task-store.ts';
import { TurnLedger } from '../../durable-objects/turn-ledger.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import type { GitHubApi, PullRequestFilesResult } from '../../src/sources/pull-requests.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import { createTreeSnapshot } from '../../src/sources/tree-snapshot.ts';
import { TaskRequestSchema, type TaskRequestInput } from '../../src/tasks/task-request.ts';
import { createMemoryTree } from '../support/memory-tree.ts';
import { storedAssemblerDeps, taskStoreOf } from '../support/task-object.ts';

const BASE = 'b'.repeat(40);

const pullRequestTask: TaskRequestInput = {
  origin: 'github',
  tenant: 'github:1',
  repo: 'acme/mono',
  baseCommit: BASE,
  request: 'Review it.',
  agent: 'reviewer',
  pullRequest: { number: 3, headSha: 'c'.repeat(40), fromFork: false, changedFiles: 1 },
};

/** The pull request's files, answered only when the test says so; `asked` resolves when they are asked for. */
function heldGitHub() {
  let release: (answer: PullRequestFilesResult) => void = () => undefined;
  let asked: () => void = () => undefined;
  const answer = new Promise<PullRequestFilesResult>((resolve) => (release = resolve));
  const wasAsked = new Promise<void>((resolve) => (asked = resolve));
  const github: GitHubApi = {
    repository: 'acme/mono',
    pullRequestFiles: () => {
      asked();
      return answer;
    },
    pullRequest: async (number) => ({ status: 'failed', number, reason: 'not asked in these tests' }),
  };
  return { github, wasAsked, release };
}

/** One macrotask: a timer set before it has run when it resolves. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function prepareCalls(withGitHub: boolean) {
  const tree = await createMemoryTree({ 'AGENTS.md': 'Root rules.\n', 'src/app.ts': 'export {};\n' });
  const source: RepositorySource = {
    repository: 'memory:mono',
    resolve: async () => ({ status: 'ok', commit: BASE }),
    snapshot: (commit, options) => createTreeSnapshot({ repository: 'memory:mono', commit, uri: (path) => path, loader: tree.loader, ...options }),
  };
  const held = heldGitHub();
  return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    store.insertTask('t', TaskRequestSchema.parse(pullRequestTask), 0, 1);
    const prepared: Array<{ task: TaskRow; agent: string }> = [];
    const ledger = new TurnLedger({
      store,
      assemble: createTaskAssembler({
        registry: createDefaultRegistry(),
        openSource: async () => ({ source, ...(withGitHub ? { github: held.github } : {}) }),
        ...storedAssemblerDeps(store, state.storage.sql),
        prepare: (task, agent) => void prepared.push({ task, agent: agent.name }),
      }),
    });
    const first = ledger.begin(0);
    let whileHeld = 0;
    if (withGitHub) {
      await held.wasAsked;
      await nextTask();
      whileHeld = prepared.length;
      held.release({ status: 'ok', files: [{ path: 'src/app.ts', status: 'modified', additions: 1, deletions: 1 }], complete: true });
    }
    const begun = await first;
    if (begun.status !== 'ok') throw new Error(begun.status);
    await nextTask();
    const afterTurnZero = prepared.length;
    const later = await ledger.begin(1);
    if (later.status !== 'ok') throw new Error(later.status);
    await nextTask();
    return { whileHeld, afterTurnZero, afterTurnOne: prepared.length, taskId: prepared[0]?.task.task_id, agent: prepared[0]?.agent };
  });
}

describe("a GitHub task's first turn, while its first request is out", () => {
  it("prepares once, with the task's agent, before that request is answered, and not again on a later turn", async () => {
    const calls = await prepareCalls(true);
    expect(calls).toEqual({ whileHeld: 1, afterTurnZero: 1, afterTurnOne: 1, taskId: 't', agent: 'reviewer' });
  });

  it('prepares nothing for a source that is not the GitHub API', async () => {
    const calls = await prepareCalls(false);
    expect(calls).toMatchObject({ afterTurnZero: 0, afterTurnOne: 0 });
  });
});
