import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { FocusLog } from '../../durable-objects/focus-log.ts';
import { createTaskAssembler } from '../../durable-objects/task-assembler.ts';
import { type TaskStore, type TurnRecord } from '../../durable-objects/task-store.ts';
import { storedAssemblerDeps, taskStoreOf } from '../support/task-object.ts';
import { TurnLedger, type CrashPoint } from '../../durable-objects/turn-ledger.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import type { GitHubApi, PullRequestFile, PullRequestFilesResult } from '../../src/sources/pull-requests.ts';
import { createTreeSnapshot } from '../../src/sources/tree-snapshot.ts';
import { TaskRequestSchema, type TaskRequestInput } from '../../src/tasks/task-request.ts';
import { contextItemId } from '../../src/tasks/transcript.ts';
import { createMemoryTree } from '../support/memory-tree.ts';

const BASE = 'b'.repeat(40);
const HEAD = 'c'.repeat(40);

const FILES = {
  'AGENTS.md': 'Root rules.\n',
  'packages/api/AGENTS.md': 'API rules.\n',
  'packages/web/AGENTS.md': 'Web rules.\n',
  'packages/web/src/app.tsx': 'export {};\n',
};

async function memorySource(): Promise<RepositorySource> {
  const tree = await createMemoryTree(FILES);
  return {
    repository: 'memory:mono',
    resolve: async () => ({ status: 'ok', commit: BASE }),
    snapshot: (commit, options) => createTreeSnapshot({ repository: 'memory:mono', commit, uri: (path) => `memory:${path}@${commit}`, loader: tree.loader, ...options }),
  };
}

/** A small fake of our own `github:api` contract, counting its listings. */
function fakeGitHub(answer: () => PullRequestFilesResult): GitHubApi & { listings: number[] } {
  const listings: number[] = [];
  return {
    repository: 'acme/mono',
    listings,
    async pullRequestFiles(_, { limit }) {
      listings.push(limit);
      return answer();
    },
    pullRequest: async (number) => ({ status: 'failed', number, reason: 'not asked in these tests' }),
  };
}

const pullRequestTask: TaskRequestInput = {
  origin: 'github',
  tenant: 'github:1',
  repo: 'acme/mono',
  baseCommit: BASE,
  request: 'Review it.',
  agent: 'reviewer',
  pullRequest: { number: 3, headSha: HEAD, fromFork: false, changedFiles: 2 },
};

/** Runs `body` in a fresh Task object with the real assembler over the memory repository. */
function inTask<T>(request: TaskRequestInput, github: GitHubApi | undefined, body: (parts: { ledger: (crash?: CrashPoint) => TurnLedger; store: TaskStore; focus: FocusLog; sql: SqlStorage }) => Promise<T>): Promise<T> {
  const stub = env.TASKS.get(env.TASKS.newUniqueId());
  return runInDurableObject(stub, async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    const focus = new FocusLog(state.storage.sql);
    store.insertTask('t', TaskRequestSchema.parse(request), 0, 1);
    const source = await memorySource();
    const assemble = createTaskAssembler({
      registry: createDefaultRegistry(),
      openSource: async () => ({ source, ...(github ? { github } : {}) }),
      ...storedAssemblerDeps(store, state.storage.sql),
      posted: focus,
    });
    const ledger = (point?: CrashPoint) => new TurnLedger({ store, assemble, ...(point ? { crash: (at: CrashPoint) => { if (at === point) throw new Error(`crash ${at}`); } } : {}) });
    return body({ ledger, store, focus, sql: state.storage.sql });
  });
}

async function firstTurn(request: TaskRequestInput, github: GitHubApi | undefined): Promise<TurnRecord> {
  return inTask(request, github, async ({ ledger }) => {
    const begun = await ledger().begin(0);
    if (begun.status !== 'ok') throw new Error(begun.status);
    return begun.record;
  });
}

const noticeText = (record: TurnRecord) => (record.item && 'content' in record.item ? record.item.content : '');
const changed = (path: string): PullRequestFile => ({ path, status: 'modified', additions: 1, deletions: 1 });

describe("a pull request's files, listed once by the Task object", () => {
  it('are listed once, for task facts and rules alike, and their directories give the rules', async () => {
    const github = fakeGitHub(() => ({ status: 'ok', files: [changed('packages/web/src/app.tsx'), changed('README.md')], complete: true }));
    const record = await firstTurn(pullRequestTask, github);
    // The most any provider of the run asks for: the focus bound, above task facts' 100.
    expect(github.listings).toEqual([300]);
    expect(record.focus).toEqual({ paths: ['packages/web/src/app.tsx', 'README.md'], files: ['packages/web/src/app.tsx', 'README.md'] });
    expect(record.entries.filter((e) => e.provider === 'rules').map((e) => e.title)).toEqual(['AGENTS.md', 'packages/web/AGENTS.md']);
    expect(noticeText(record)).toContain('- packages/web/src/app.tsx: modified, +1 -1');
  });

  it('that cannot be listed are reported to the model, never taken for "no focus paths"', async () => {
    const github = fakeGitHub(() => ({ status: 'failed', reason: 'GitHub API error (502) for the files of pull request #3' }));
    const record = await firstTurn(pullRequestTask, github);
    expect(record.focus).toEqual({ paths: [], files: [] });
    const text = noticeText(record);
    expect(text).toContain("The files pull request #3 changes could not be listed, so the rules of the directories it touches were not read; only the working directory's chain was. Do not say you followed the rules of those directories.");
    expect(text).not.toContain('502');
    expect(record.providers.find((p) => p.name === 'rules')?.reason).toContain("the pull request's changed files could not be listed: GitHub API error (502)");
    expect(text).toContain('The changed files could not be listed: GitHub did not answer.');
  });

  it('past the first 300 are counted in a notice, and not followed', async () => {
    const files = Array.from({ length: 301 }, (_, i) => changed(`gen/f${String(i).padStart(3, '0')}.ts`));
    const record = await firstTurn({ ...pullRequestTask, pullRequest: { number: 3, headSha: HEAD, fromFork: false, changedFiles: 320 } }, fakeGitHub(() => ({ status: 'ok', files: files.slice(0, 300), complete: false })));
    expect(record.focus?.paths).toHaveLength(300);
    expect(noticeText(record)).toContain('Only the first 300 of the 320 files pull request #3 changes were followed: the rules of directories that only the other 20 touch were not read.');
  });

  it('are not listed for an agent without github:api, and the model is told', async () => {
    const github = fakeGitHub(() => ({ status: 'ok', files: [changed('packages/web/src/app.tsx')], complete: true }));
    const record = await firstTurn({ ...pullRequestTask, agent: 'explorer' }, github);
    expect(github.listings).toEqual([]);
    expect(noticeText(record)).toContain('The files pull request #3 changes were not listed for this task');
  });
});

describe('a later turn that moved, across a crash', () => {
  it('repairs from the stored record without rerunning providers, and leaves a path posted meanwhile to the next turn', async () => {
    await inTask({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.' }, undefined, async ({ ledger, store, focus, sql }) => {
      await ledger().begin(0);
      focus.record({ paths: ['packages/api/handler.ts'], skills: [], rules: [] }, { paths: new Set(['']), skills: new Set() }, 1);
      await expect(ledger('after-turn-record').begin(1)).rejects.toThrow('crash after-turn-record');
      const stored = store.turn(1);
      expect(stored?.moved).toEqual({ through: 1, paths: ['packages/api/handler.ts'], skills: [], rules: [] });
      expect(stored?.entries.filter((e) => e.provider === 'rules').map((e) => e.title)).toEqual(['packages/api/AGENTS.md']);

      // Posted after turn 1 began: turn 1's repair must not take it.
      focus.record({ paths: ['packages/web/src/app.tsx'], skills: [], rules: [] }, { paths: new Set(['']), skills: new Set() }, 2);
      const repaired = await ledger().begin(1);
      expect(repaired).toMatchObject({ status: 'ok', path: 'repaired' });
      expect(repaired.status === 'ok' ? repaired.record.digest : '').toBe(stored?.digest);
      expect(Number(sql.exec('SELECT COUNT(*) AS n FROM transcript WHERE item_id = ?', contextItemId(1)).one()['n'])).toBe(1);

      const two = await ledger().begin(2);
      if (two.status !== 'ok') throw new Error(two.status);
      expect(two.record.moved).toEqual({ through: 2, paths: ['packages/web/src/app.tsx'], skills: [], rules: [] });
      expect(two.record.entries.filter((e) => e.provider === 'rules').map((e) => e.title)).toEqual(['packages/web/AGENTS.md']);
    });
  });
});
