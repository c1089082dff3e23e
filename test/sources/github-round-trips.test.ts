import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import type { TaskView } from '../../src/context/provider.ts';
import { planReads } from '../../src/context/read-ahead.ts';
import { assembleFirstTurn } from '../../src/context/turn.ts';
import { NOT_MOVED } from '../../src/context/provider.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { firstTurnFocus } from '../../src/tasks/turn-focus.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import { createCachedLoader } from '../../src/sources/cached-loader.ts';
import { createGitHubApi } from '../../src/sources/github/pull-request-files.ts';
import type { KeyValueStore } from '../../src/sources/key-value-store.ts';
import type { ReadResult, Snapshot } from '../../src/sources/snapshot.ts';
import { appInstallationAuth, createGitHubSource, tokenAuth } from '../../src/sources/github/index.ts';
import type { GitHubAuth } from '../../src/sources/github/index.ts';
import { CHAIN, createApiScope, githubFixture, SKILL_COUNT } from '../support/github-api-client.ts';
import type { ApiScope } from '../support/github-api-client.ts';
import { requestWaves, type RequestWaves } from '../support/request-waves.ts';

const fx = githubFixture();
/** A scope of its own on the GitHub API test server; rounds are counted by `requestWaves`, not by the server's clock. */
async function scoped(config: { treeLimit?: number } = {}): Promise<ApiScope> {
  const scope = createApiScope();
  await scope.configure(config);
  return scope;
}

/** A KV stand-in shared by the tasks of one test, as KV is shared by every isolate. */
function mapStore(): KeyValueStore {
  const values = new Map<string, string>();
  return { get: async (key) => values.get(key) ?? null, put: async (key, value) => void values.set(key, value) };
}

function sourceFor(scope: ApiScope, auth: GitHubAuth = tokenAuth(fx.token), waves?: RequestWaves) {
  return createGitHubSource({ owner: fx.owner, repo: fx.repo, auth, baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 }, ...(waves ? { fetch: waves.fetch } : {}) });
}

/** Reads the way the rules and skills providers do: both at once, each fanning out in parallel. */
async function assemble(snapshot: Snapshot): Promise<{ rules: ReadResult[]; skills: ReadResult[] }> {
  const rules = async (): Promise<ReadResult[]> => {
    const listings = await Promise.all(CHAIN.map((dir) => snapshot.list(dir)));
    const files = listings.flatMap((listing) => (listing.status === 'ok' ? listing.entries.filter((entry) => entry.name === 'AGENTS.md') : []));
    return Promise.all(files.map((file) => snapshot.read(file.path, { maxBytes: 65_536 })));
  };
  const skills = async (): Promise<ReadResult[]> => {
    const listing = await snapshot.list('.agents/skills');
    const dirs = listing.status === 'ok' ? listing.entries.filter((entry) => entry.kind === 'dir') : [];
    return Promise.all(dirs.map((dir) => snapshot.read(`${dir.path}/SKILL.md`, { maxBytes: 16_384 })));
  };
  const [rulesRead, skillsRead] = await Promise.all([rules(), skills()]);
  return { rules: rulesRead, skills: skillsRead };
}

function expectComplete(result: { rules: ReadResult[]; skills: ReadResult[] }): void {
  expect(result.rules.map((read) => read.status)).toEqual(CHAIN.map(() => 'ok'));
  expect(result.skills).toHaveLength(SKILL_COUNT);
  expect(result.skills.every((read) => read.status === 'ok')).toBe(true);
}

describe('round trips for a cold assembly (rules chain of depth 5 + 30 skills)', () => {
  it('costs three sequential round trips from a branch name: resolve, tree, blobs', async () => {
    const scope = await scoped();
    const waves = requestWaves();
    const source = sourceFor(scope, undefined, waves);
    const resolved = await source.resolve('main');
    if (resolved.status !== 'ok') throw new Error(`resolve: ${resolved.status}`);
    expectComplete(await assemble(source.snapshot(resolved.commit)));

    const stats = await scope.stats();
    expect(waves.rounds(), JSON.stringify(waves.requests())).toBe(3);
    expect(await scope.count('/commits/')).toBe(1);
    expect(await scope.count('/git/trees/')).toBe(1);
    expect(await scope.count('/git/blobs/')).toBe(CHAIN.length + SKILL_COUNT);
    expect(stats.count).toBe(2 + CHAIN.length + SKILL_COUNT);
  });

  it('costs two from a pinned commit', async () => {
    const scope = await scoped();
    const waves = requestWaves();
    expectComplete(await assemble(sourceFor(scope, undefined, waves).snapshot(fx.commits.head)));
    expect(waves.rounds()).toBe(2);
  });

  it('adds one round for an installation token in a fresh isolate, none when the token store holds one', async () => {
    const store = mapStore();
    const freshIsolate = () =>
      appInstallationAuth({ issuer: fx.appId, privateKey: fx.keyPkcs8, installationId: fx.installationId, tokenStore: store, memory: new Map() });
    // One scope for both tasks: tokens are stored per API base URL, and each test scope has its own.
    const scope = await scoped();
    const cold = requestWaves();
    expectComplete(await assemble(sourceFor(scope, freshIsolate(), cold).snapshot(fx.commits.head)));
    expect(cold.rounds()).toBe(3);
    expect(cold.requests().filter((request) => request.path.includes('/access_tokens'))).toHaveLength(1);

    const stored = requestWaves();
    expectComplete(await assemble(sourceFor(scope, freshIsolate(), stored).snapshot(fx.commits.head)));
    expect(stored.rounds()).toBe(2);
    expect(stored.requests().filter((request) => request.path.includes('/access_tokens'))).toHaveLength(0);
  });

  it('counts reads issued one after another as one round each (the measure is not blind)', async () => {
    const scope = await scoped();
    const waves = requestWaves();
    const snapshot = sourceFor(scope, undefined, waves).snapshot(fx.commits.head);
    for (const dir of CHAIN.slice(0, 3)) await snapshot.read(dir === '' ? 'AGENTS.md' : `${dir}/AGENTS.md`, { maxBytes: 1024 });
    expect(waves.rounds()).toBe(4);
  });
});

describe('round trips through the default providers', () => {
  /** A pull request task pinned at its base, through every default provider, read over REST or with the GraphQL read-ahead. */
  async function pullRequestTask(scope: ApiScope, reads: 'rest' | 'graphql', waves: RequestWaves = requestWaves()) {
    const client = { owner: fx.owner, repo: fx.repo, auth: tokenAuth(fx.token), baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 }, fetch: waves.fetch };
    const source = createGitHubSource({ ...client, reads });
    const lookup = resolveAgent('reviewer');
    if (!lookup.ok) throw new Error(lookup.error);
    const task: TaskView = {
      request: 'Review it.',
      origin: 'github',
      repository: source.repository,
      commit: fx.commits.first,
      headCommit: fx.commits.head,
      pullRequest: { number: fx.pull.number, headSha: fx.commits.head, fromFork: false },
      cwd: CHAIN[CHAIN.length - 1] ?? '',
      focusPaths: [],
      trusted: true,
      skills: [],
      agent: 'reviewer',
    };
    const registry = createDefaultRegistry();
    const available = ['repo:read', 'github:api'] as const;
    const github = createGitHubApi(client);
    // The attempt's deadline, as the Task object gives it: the settings read waits under it.
    const signal = AbortSignal.timeout(60_000);
    // As the Task object does: the pull request's files are listed once, before the plan is made.
    const request = TaskRequestSchema.parse({ origin: 'github', tenant: 'github:1', repo: `${fx.owner}/${fx.repo}`, baseCommit: fx.commits.first, request: task.request, cwd: task.cwd, agent: 'reviewer', pullRequest: task.pullRequest });
    const focus = await firstTurnFocus({ request, plan: { registry, agent: lookup.agent, task, turn: 0, available }, github, posted: { through: () => 0, between: () => NOT_MOVED }, signal, progress: () => undefined });
    const view: TaskView = { ...task, focusPaths: focus.paths };
    const plan = planReads({ registry, agent: lookup.agent, task: view, turn: 0, available, focusFiles: focus.files });
    return assembleFirstTurn({
      registry,
      agent: lookup.agent,
      available,
      snapshot: source.snapshot(fx.commits.first, { plan, signal }),
      source,
      github,
      task: view,
      turn: 0,
      signal,
      focusFiles: focus.files,
      ...(focus.pullRequestFiles ? { pullRequestFiles: focus.pullRequestFiles } : {}),
    });
  }

  it('adds one round over REST for a pull request task: its files first (the focus they give decides the plan), then the tree with the commit facts, then the blobs', async () => {
    const scope = await scoped();
    const waves = requestWaves();
    const turn = await pullRequestTask(scope, 'rest', waves);
    expect(turn.providers.map((p) => [p.name, p.outcome])).toEqual([
      ['freshness', 'empty'],
      ['host', 'empty'],
      ['system', 'included'],
      ['task-facts', 'included'],
      ['rules', 'included'],
      ['skills', 'included'],
      // Earlier tasks come from the Task object's host; this one has no task store.
      ['history', 'capability-gated'],
    ]);
    const stats = await scope.stats();
    expect(waves.rounds(), JSON.stringify(waves.requests())).toBe(3);
    expect(await scope.count('/git/trees/')).toBe(1);
    expect(await scope.count('/git/commits/')).toBe(1);
    expect(await scope.count(`/pulls/${fx.pull.number}/files`)).toBe(1);
    // One more blob than the chain's files: the root CLAUDE.md, a link to the AGENTS.md beside it,
    // is read too (its verdict is every client's), its target then coming from the snapshot.
    expect(stats.count).toBe(3 + CHAIN.length + SKILL_COUNT + 1);
  });

  it('costs two requests with the GraphQL read-ahead: the files request, then the query with commit facts, sizes and every focus directory; the turn is the same', async () => {
    const scope = await scoped();
    const waves = requestWaves();
    const turn = await pullRequestTask(scope, 'graphql', waves);
    // The files are listed once, by the host, before the plan; task facts and rules both use that
    // listing, and the settings file is read in the query's round.
    expect(waves.rounds(), JSON.stringify(waves.requests())).toBe(2);
    const base = new URL(scope.baseUrl).pathname;
    expect(waves.requests().map((request) => [request.round, request.path.replace(base, '').replace(/\?.*$/, '')])).toEqual([
      [1, `/repos/${fx.owner}/${fx.repo}/pulls/${fx.pull.number}/files`],
      [2, '/graphql'],
    ]);
    // The same scope: links in the context carry the API base URL.
    const rest = await pullRequestTask(scope, 'rest');
    const comparable = (of: typeof turn) => ({ ...of, providers: of.providers.map(({ durationMs: _, ...outcome }) => outcome) });
    expect(comparable(turn)).toEqual(comparable(rest));
    expect(turn.messages[3]?.content).toContain(`Commit: ${fx.commits.first}, committed ${fx.commitFacts[fx.commits.first]?.committedAt}`);
    expect(turn.messages[3]?.content).toMatch(/- AGENTS\.md \(\d+ bytes\)/);
  });
});

describe('round trips for a warm assembly', () => {
  it('costs nothing on a commit whose tree and blobs are in the KV cache', async () => {
    const cached = (scope: ApiScope) =>
      createGitHubSource({
        owner: fx.owner,
        repo: fx.repo,
        auth: tokenAuth(fx.token),
        baseUrl: scope.baseUrl,
        // Other files of this runner cache the same commit: this test's keys are its own.
        wrapLoader: (loader, cacheScope) => createCachedLoader(loader, env.CACHE, { ...cacheScope, repository: `${cacheScope.repository}#${run}` }),
      });
    const run = crypto.randomUUID();
    const cold = await scoped();
    expectComplete(await assemble(cached(cold).snapshot(fx.commits.first)));
    expect((await cold.stats()).count).toBe(1 + CHAIN.length + SKILL_COUNT);

    const warm = await scoped();
    const again = await assemble(cached(warm).snapshot(fx.commits.first));
    expectComplete(again);
    expect(again.rules[0]).toMatchObject({ text: '# Rules at depth 0\n\nFirst edition.\n' });
    expect((await warm.stats()).count).toBe(0);
  });
});

describe('truncated recursive trees', () => {
  it('walks down non-recursive trees and lists exactly what the whole tree lists', async () => {
    const whole = await scoped();
    const cut = await scoped({ treeLimit: 20 });
    const dirs = ['', ...CHAIN, '.agents', '.agents/skills', '.agents/skills/skill-07', 'docs', 'vendor', 'a/b/c/d/e/src'];
    const expected = await Promise.all(dirs.map((dir) => sourceFor(whole).snapshot(fx.commits.head).list(dir)));
    const walked = sourceFor(cut).snapshot(fx.commits.head);
    expect(await Promise.all(dirs.map((dir) => walked.list(dir)))).toEqual(expected);
    expectComplete(await assemble(walked));

    const trees = (await cut.stats()).requests.filter((request) => request.path.includes('/git/trees/'));
    expect(trees.length).toBeGreaterThan(2);
    // Only directories whose recursive answer was truncated are listed one level at a time.
    expect(trees.filter((request) => !request.path.includes('recursive')).length).toBeLessThan(trees.length / 2);
  });
});
