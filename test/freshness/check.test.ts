import { describe, expect, it } from 'vitest';
import { checkFreshness, type FreshnessInput } from '../../src/freshness/check.ts';
import { trackedSources } from '../../src/freshness/tracked.ts';
import type { GitHubApi, PullRequestRead } from '../../src/sources/pull-requests.ts';
import type { RepositorySource, ResolveResult } from '../../src/sources/snapshot.ts';
import { createTreeSnapshot, type TreeLoader } from '../../src/sources/tree-snapshot.ts';
import { createMemoryTree, gitBlobOid, type MemoryFile } from '../support/memory-tree.ts';

const OLD = '1'.repeat(40);
const NEW = '2'.repeat(40);
const NOW = Date.parse('2026-11-20T12:00:00Z');

const BASE: Record<string, MemoryFile> = {
  'AGENTS.md': { symlink: 'docs/AGENTS.md' },
  'docs/AGENTS.md': '# Rules\n',
  'src/AGENTS.md': '# Src\n',
  'skills/tdd/SKILL.md': '---\nname: tdd\n---\nRed.\n',
  'skills/tdd/scripts/run.sh': 'echo\n',
};

interface Repo {
  source: RepositorySource;
  calls: { resolve: string[]; trees: string[] };
}

/** A repository of commits held in memory; `main` points at `refs.main`; `failing` commits fail every read. */
async function repo(commits: Record<string, Record<string, MemoryFile>>, refs: Record<string, ResolveResult>, failing: string[] = []): Promise<Repo> {
  const calls = { resolve: [] as string[], trees: [] as string[] };
  const loaders = new Map<string, TreeLoader>();
  for (const [commit, files] of Object.entries(commits)) loaders.set(commit, (await createMemoryTree(files)).loader);
  const source: RepositorySource = {
    repository: 'memory:fresh',
    async resolve(ref) {
      calls.resolve.push(ref);
      return refs[ref] ?? { status: 'missing', ref };
    },
    snapshot(commit) {
      const inner = loaders.get(commit);
      const loader: TreeLoader = {
        async loadTree(signal) {
          calls.trees.push(commit);
          if (failing.includes(commit) || !inner) throw new Error(`tree ${commit.slice(0, 4)} unavailable`);
          return inner.loadTree(signal);
        },
        loadBlob: (oid, signal) => (inner ? inner.loadBlob(oid, signal) : Promise.reject(new Error('no blob'))),
        loadCommit: (signal) => (inner ? inner.loadCommit(signal) : Promise.reject(new Error('no commit'))),
      };
      return createTreeSnapshot({ repository: 'memory:fresh', commit, uri: (path) => `memory:${path}@${commit}`, loader });
    },
  };
  return { source, calls };
}

/** What the rules and skills providers recorded on turn 0 at OLD. */
async function recorded() {
  const at = (path: string, blob?: string) => ({ uri: `memory:${path}`, path, revision: OLD, ...(blob ? { blob } : {}) });
  return trackedSources([
    { provider: 'rules', category: 'rules', title: 'AGENTS.md', source: at('AGENTS.md', await gitBlobOid('# Rules\n')) },
    { provider: 'rules', category: 'rules', title: 'src/AGENTS.md', source: at('src/AGENTS.md', await gitBlobOid('# Src\n')) },
    { provider: 'skills', category: 'skills', title: 'Skills index', source: at('skills') },
    { provider: 'skills', category: 'skills', title: 'Selected skill: tdd', source: at('skills/tdd/SKILL.md', await gitBlobOid('---\nname: tdd\n---\nRed.\n')) },
    // Sources without a blob that are not a skills index name nothing to compare.
    { provider: 'system', category: 'system', title: 'Inventory', source: { uri: 'memory:', revision: OLD } },
  ]);
}

async function check(r: Repo, overrides: Partial<FreshnessInput> = {}) {
  // Past the test's own timeout: a comparison that must finish never races it on a loaded machine.
  return checkFreshness({ source: r.source, commit: OLD, ref: 'main', sources: await recorded(), deadlineMs: 60_000, now: () => NOW, ...overrides });
}

const statuses = (report: Awaited<ReturnType<typeof check>>) => report.sources.map((s) => [s.path, s.status, s.reason ?? null]);

describe('checkFreshness', () => {
  it('tracks each source once and leaves out entries that name no content', async () => {
    const sources = await recorded();
    expect(sources.map((s) => [s.kind, s.path])).toEqual([
      ['file', 'AGENTS.md'],
      ['file', 'src/AGENTS.md'],
      ['skills-index', 'skills'],
      ['file', 'skills/tdd/SKILL.md'],
    ]);
    // The same file recorded on two turns is one source.
    const twice = { provider: 'rules', category: 'rules', title: 'AGENTS.md', source: { uri: 'memory:AGENTS.md', path: 'AGENTS.md', revision: OLD, blob: 'b'.repeat(40) } };
    expect(trackedSources([twice, { ...twice }])).toHaveLength(1);
  });

  it('compares nothing and reads no tree when the ref has not moved', async () => {
    const r = await repo({ [OLD]: BASE }, { main: { status: 'ok', commit: OLD } });
    const report = await check(r);
    expect(report).toMatchObject({ commit: OLD, ref: 'main', current: OLD, moved: false, checkedAt: '2026-11-20T12:00:00.000Z' });
    expect(report.sources.every((s) => s.status === 'unchanged')).toBe(true);
    expect(r.calls).toEqual({ resolve: ['main'], trees: [] });
  });

  it('tells changed, deleted, unchanged and replaced-by-a-directory sources apart, following symlinks to their targets', async () => {
    const r = await repo(
      {
        [OLD]: BASE,
        [NEW]: {
          // Same target content through a new link: unchanged, as the providers would read it.
          'AGENTS.md': { symlink: 'docs/RULES.md' },
          'docs/RULES.md': '# Rules\n',
          'src/AGENTS.md/index.md': 'now a directory\n',
          'skills/lint/SKILL.md': '---\nname: lint\n---\nLint.\n',
          'skills/tdd/scripts/run.sh': 'echo changed\n',
        },
      },
      { main: { status: 'ok', commit: NEW } },
    );
    const report = await check(r);
    expect(report).toMatchObject({ commit: OLD, current: NEW, moved: true });
    expect(statuses(report)).toEqual([
      ['AGENTS.md', 'unchanged', null],
      ['src/AGENTS.md', 'deleted', 'a directory is there now'],
      ['skills', 'changed', null],
      ['skills/tdd/SKILL.md', 'deleted', null],
    ]);
    expect(report.sources[0]).toMatchObject({ blob: await gitBlobOid('# Rules\n'), currentBlob: await gitBlobOid('# Rules\n') });
    // A skill's own files are not more skills; only SKILL.md files count for the index.
    expect(report.sources[2]?.changes).toEqual(['skill lint added', 'skill tdd deleted']);
    // The old tree is read for the skills index only; files compare against their recorded blob ids.
    expect(r.calls.trees.sort()).toEqual([OLD, NEW]);
  });

  it('reports a dangling symlink as deleted with the reason', async () => {
    const r = await repo({ [OLD]: BASE, [NEW]: { ...BASE, 'docs/AGENTS.md': { symlink: 'gone.md' } } }, { main: { status: 'ok', commit: NEW } });
    const report = await check(r);
    expect(report.sources[0]).toMatchObject({ path: 'AGENTS.md', status: 'deleted', reason: expect.stringContaining('no longer resolves') });
  });

  it('makes every source unverifiable with the reason when the ref cannot be resolved or no longer exists', async () => {
    const failed = await repo({ [OLD]: BASE }, { main: { status: 'failed', ref: 'main', reason: 'listing refs failed: 503' } });
    const report = await check(failed);
    expect(report).toMatchObject({ current: null, moved: null, reason: 'could not resolve main: listing refs failed: 503' });
    expect(report.sources.map((s) => s.status)).toEqual(['unverifiable', 'unverifiable', 'unverifiable', 'unverifiable']);
    expect(report.sources[0]?.reason).toBe('could not resolve main: listing refs failed: 503');

    const gone = await check(await repo({ [OLD]: BASE }, {}));
    expect(gone.reason).toBe('main does not name a commit in memory:fresh now');
  });

  it('makes a source unverifiable, never unchanged, when a tree cannot be read', async () => {
    const r = await repo({ [OLD]: BASE, [NEW]: BASE }, { main: { status: 'ok', commit: NEW } }, [NEW]);
    const report = await check(r);
    expect(report).toMatchObject({ current: NEW, moved: true });
    expect(report.sources.every((s) => s.status === 'unverifiable')).toBe(true);
    expect(report.sources[0]?.reason).toBe(`could not read it at 2222222: tree 2222 unavailable`);
  });

  it('re-resolves the default branch for a task that named a commit', async () => {
    const r = await repo({ [OLD]: BASE }, { HEAD: { status: 'ok', commit: OLD } });
    expect((await check(r, { ref: OLD })).ref).toBe('HEAD');
    expect((await check(r, { ref: undefined })).ref).toBe('HEAD');
    expect(r.calls.resolve).toEqual(['HEAD', 'HEAD']);
  });

  it('compares from `since` when the model was last told about a later commit', async () => {
    const MID = '3'.repeat(40);
    const r = await repo({ [OLD]: BASE, [MID]: { ...BASE, 'src/AGENTS.md': '# Src v2\n' }, [NEW]: { ...BASE, 'src/AGENTS.md': '# Src v2\n' } }, { main: { status: 'ok', commit: NEW } });
    const report = await check(r, { since: MID });
    expect(report.commit).toBe(MID);
    expect(statuses(report).map(([path, status]) => [path, status])).toEqual([
      ['AGENTS.md', 'unchanged'],
      ['src/AGENTS.md', 'unchanged'],
      ['skills', 'unchanged'],
      ['skills/tdd/SKILL.md', 'unchanged'],
    ]);
  });

  it("compares knowledge that cites an older revision from the task's commit, where the model was told of earlier changes", async () => {
    const CITED = '4'.repeat(40);
    const r = await repo(
      { [CITED]: { ...BASE, 'docs/deploy.md': 'v1\n' }, [OLD]: { ...BASE, 'docs/deploy.md': 'v2\n' }, [NEW]: { ...BASE, 'docs/deploy.md': 'v2\n', 'src/AGENTS.md': '# Src v2\n' } },
      { main: { status: 'ok', commit: NEW } },
    );
    const cited = { uri: 'memory:docs/deploy.md', path: 'docs/deploy.md', revision: CITED, blob: await gitBlobOid('v1\n') };
    const sources = trackedSources([
      { provider: 'rules', category: 'rules', title: 'src/AGENTS.md', source: { uri: 'memory:src/AGENTS.md', path: 'src/AGENTS.md', revision: OLD, blob: await gitBlobOid('# Src\n') } },
      { provider: 'memory', category: 'memory', title: 'playbook k1', source: cited },
      { provider: 'memory', category: 'memory', title: 'fact k2', source: { ...cited, uri: 'memory:k2' } },
    ]);
    expect(sources.map((s) => s.path)).toEqual(['src/AGENTS.md', 'docs/deploy.md']);
    const report = await check(r, { sources });
    expect(statuses(report)).toEqual([
      ['src/AGENTS.md', 'changed', null],
      ['docs/deploy.md', 'unchanged', null],
    ]);
    expect(report.sources[1]).toMatchObject({ revision: OLD, blob: await gitBlobOid('v2\n'), currentBlob: await gitBlobOid('v2\n') });
    // The cited revision is never read: only the task's commit and the new one.
    expect([...new Set(r.calls.trees)].sort()).toEqual([OLD, NEW]);
  });

  it('answers within its deadline when the source never does, with every source unverifiable', async () => {
    const hanging: RepositorySource = { repository: 'memory:hang', resolve: () => new Promise<never>(() => {}), snapshot: () => { throw new Error('unused'); } };
    const report = await checkFreshness({ source: hanging, commit: OLD, ref: 'main', sources: await recorded(), deadlineMs: 50, now: () => NOW });
    expect(report).toMatchObject({ current: null, moved: null, reason: 'the check did not finish: no answer within 50 ms' });
    expect(report.sources.every((s) => s.status === 'unverifiable')).toBe(true);
  });

  it('propagates the caller abort instead of reporting it', async () => {
    const hanging: RepositorySource = { repository: 'memory:hang', resolve: () => new Promise<never>(() => {}), snapshot: () => { throw new Error('unused'); } };
    const controller = new AbortController();
    const pending = checkFreshness({ source: hanging, commit: OLD, ref: 'main', sources: [], deadlineMs: 5_000, now: () => NOW, signal: controller.signal });
    controller.abort(new Error('assembly aborted'));
    await expect(pending).rejects.toThrow('assembly aborted');
  });
});

describe('checkFreshness for a pull request', () => {
  const HEAD = 'a'.repeat(40);
  /** The one `github:api` read freshness makes, answering `answer`. */
  const github = (answer: PullRequestRead): Pick<GitHubApi, 'pullRequest'> => ({ pullRequest: async () => answer });

  it('reports a moved head and compares against the base branch as it is now', async () => {
    const r = await repo({ [OLD]: BASE, [NEW]: BASE }, { main: { status: 'ok', commit: NEW } });
    const pull = github({ status: 'ok', pullRequest: { number: 7, baseRef: 'main', headSha: 'b'.repeat(40), state: 'open', headRef: 'feature', merged: false, draft: false, mergeable: true, mergeableState: 'clean' } });
    const report = await check(r, { pullRequest: { github: pull, number: 7, head: HEAD } });
    expect(report.pullRequest).toEqual({ number: 7, head: HEAD, currentHead: 'b'.repeat(40), headMoved: true, baseRef: 'main', currentBaseRef: 'main', state: 'open' });
    expect(report).toMatchObject({ ref: 'main', current: NEW });
  });

  it('follows a retargeted pull request to its new base', async () => {
    const r = await repo({ [OLD]: BASE, [NEW]: { ...BASE, 'src/AGENTS.md': '# Release rules\n' } }, { main: { status: 'ok', commit: OLD }, release: { status: 'ok', commit: NEW } });
    const pull = github({ status: 'ok', pullRequest: { number: 7, baseRef: 'release', headSha: HEAD, state: 'open', headRef: 'feature', merged: false, draft: false, mergeable: true, mergeableState: 'clean' } });
    const report = await check(r, { pullRequest: { github: pull, number: 7, head: HEAD } });
    expect(report).toMatchObject({ ref: 'release', current: NEW, moved: true, pullRequest: { baseRef: 'main', currentBaseRef: 'release', headMoved: false } });
    expect(report.sources.find((s) => s.path === 'src/AGENTS.md')?.status).toBe('changed');
    expect(r.calls.resolve).toEqual(['main', 'release']);
  });

  it('still checks the base when the pull request cannot be read, and says why', async () => {
    const r = await repo({ [OLD]: BASE }, { main: { status: 'ok', commit: OLD } });
    const report = await check(r, { pullRequest: { github: github({ status: 'failed', number: 7, reason: 'bad credentials (401)' }), number: 7, head: HEAD } });
    expect(report).toMatchObject({ current: OLD, moved: false, pullRequest: { headMoved: null, currentHead: null, reason: 'bad credentials (401)' } });
  });
});
