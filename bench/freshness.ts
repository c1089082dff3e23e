/**
 * Freshness provider benchmarks (issue 10): requests one later turn costs, through the real
 * provider set (rules and skills turn-gated, freshness running), on the shape the source
 * benchmarks use (rules chain depth 5 + 30 skills, one skill selected), against the local GitHub
 * API server and against a smart-HTTP git remote (git http-backend). Turns are assembled as the
 * Task object assembles them (turn 0 resolves the ref with the read plan, so GitHub reads it
 * ahead over GraphQL; every turn's pinned snapshot carries turn 0's plan). Each backend keeps a Map-backed
 * KV across turns, as the Worker's CACHE does:
 * - nothing moved since turn 0;
 * - cold: after a push that changed AGENTS.md, the KV holding only what turn 0 read;
 * - warm: the same check again, the new commit's tree now in the KV;
 * - a rule-set change: after a push that adds an AGENTS.override.md in the working directory (a
 *   file the model was never given, which now replaces one it was), cold: the rule set at both
 *   commits compared and the new file brought, from the same read of the new commit;
 * - (GitHub) a pull request task: the same, plus reading the pull request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { resolveAgent } from '../src/context/agent-catalog.ts';
import type { EarlierEntry, PullRequestView, TaskView } from '../src/context/provider.ts';
import { planReads } from '../src/context/read-ahead.ts';
import { assembleFirstTurn, gatherContext, type AssembleInput } from '../src/context/turn.ts';
import { createDefaultRegistry } from '../src/providers/registry.ts';
import { createCachedLoader } from '../src/sources/cached-loader.ts';
import { createRemoteGitSource } from '../src/sources/git/remote-source.ts';
import { createGitHubSource, tokenAuth } from '../src/sources/github/index.ts';
import { createGitHubApi } from '../src/sources/github/pull-request-files.ts';
import type { KeyValueStore } from '../src/sources/key-value-store.ts';
import type { GitHubApi } from '../src/sources/pull-requests.ts';
import type { RepositorySource } from '../src/sources/snapshot.ts';
import { serveWithHttpBackend } from '../src/cli/run/git-http-backend.ts';
import { cloneBare, createGitRepo, gitEnv, type GitFixture } from '../test/support/git-fixtures.ts';
import { rounds } from '../test/support/github-api-scope.ts';
import { startLocalGitHub } from './local-github.ts';
import { repoShape, writeRepoShape } from './repo-shape.ts';
import { mapStore } from './sources.ts';

/** Long enough that requests issued together overlap at the server, so rounds can be told apart. */
const LATENCY_MS = 200;
const TOKEN = 'ghp_bench_freshness_token';
const SHAPE = repoShape('a/b/c/d/e');

const lookup = resolveAgent('entry');
if (!lookup.ok) throw new Error(lookup.error);
const agent = lookup.agent;

export async function benchFreshness(): Promise<string[]> {
  return [...(await benchGitHub()), ...(await benchGitRemote())];
}

interface Backend {
  source: RepositorySource;
  /** GitHub reads (`github:api`), as every `owner/name` task gets them. */
  github?: GitHubApi;
  /** Requests since the last call, by kind. */
  take(): Promise<{ count: number; rounds?: number; kinds: string }>;
}

/**
 * Turn 0 pinned from `main` (a branch task) or at a pull request's base commit, then the later
 * turns of each case, counting the backend's requests.
 */
async function measure(open: (store: KeyValueStore) => Backend, pinned: { base: string; pullRequest: PullRequestView } | { ref: 'main' }, push: () => string, pushRule: () => string): Promise<Record<string, string>> {
  // pushRule adds an AGENTS.override.md on the working directory's chain where there was none, and returns its path.
  const store = mapStore();
  const backend = open(store);
  const registry = createDefaultRegistry();
  const available = backend.github ? (['repo:read', 'github:api'] as const) : (['repo:read'] as const);
  const unpinned: TaskView = {
    request: 'Fix it. Use $skill-01.',
    origin: 'api',
    repository: backend.source.repository,
    ...('ref' in pinned ? { ref: pinned.ref } : { headCommit: pinned.pullRequest.headSha, headFromFork: false, pullRequest: pinned.pullRequest }),
    cwd: SHAPE.cwd,
    focusPaths: [],
    trusted: true,
    skills: [],
    agent: agent.name,
  };
  // As the Task object plans: turn 0's reads, for the pinned snapshot of every turn.
  const plan = (turn: number) => planReads({ registry, agent, task: unpinned, turn, available });
  let commit: string;
  if ('base' in pinned) commit = pinned.base;
  else {
    const resolved = await backend.source.resolve(pinned.ref, { plan: plan(0) });
    if (resolved.status !== 'ok') throw new Error(`could not resolve ${pinned.ref}: ${JSON.stringify(resolved)}`);
    commit = resolved.commit;
  }
  const base: Omit<AssembleInput, 'turn' | 'snapshot'> = {
    registry,
    agent,
    available,
    source: backend.source,
    ...(backend.github ? { github: backend.github } : {}),
    task: { ...unpinned, commit },
    cache: store,
  };
  const first = await assembleFirstTurn({ ...base, snapshot: backend.source.snapshot(commit, { plan: plan(0) }), turn: 0 });
  const history: EarlierEntry[] = first.entries.map((entry) => ({ turn: 0, provider: entry.provider, category: entry.category, title: entry.title, source: entry.source }));
  const turn0 = describe(await backend.take());

  const later = async (expectNotice: boolean, expectRule?: string): Promise<string> => {
    const gathered = await gatherContext({ ...base, snapshot: backend.source.snapshot(commit, { plan: plan(0) }), turn: 1, history, plan: plan(0) });
    const outcome = gathered.outcomes.find((o) => o.name === 'freshness');
    const notice = gathered.entries.some((entry) => entry.provider === 'freshness');
    if (notice !== expectNotice) throw new Error(`freshness gave ${notice ? 'a' : 'no'} notice: ${JSON.stringify(outcome)}`);
    if (expectRule !== undefined && !gathered.entries.some((entry) => entry.provider === 'freshness' && entry.source.path === expectRule)) throw new Error(`freshness did not bring ${expectRule}: ${JSON.stringify(outcome)}`);
    return describe(await backend.take());
  };
  const still = await later(false);
  push();
  const cold = await later(true);
  const warm = await later(true);
  const added = pushRule();
  const rule = await later(true, added);
  return { turn0, still, cold, warm, rule };
}

function describe({ count, rounds, kinds }: Awaited<ReturnType<Backend['take']>>): string {
  return `${count} request${count === 1 ? '' : 's'} (${kinds})${rounds === undefined ? '' : `, ${rounds} sequential round${rounds === 1 ? '' : 's'}`}`;
}

async function benchGitHub(): Promise<string[]> {
  const repo = createGitRepo();
  try {
    writeRepoShape(repo, SHAPE);
    const commit = repo.commitAll('bench');
    repo.git('branch', 'feature', commit);
    const server = await startLocalGitHub({
      repoDir: repo.dir,
      owner: 'acme',
      repo: 'widgets',
      token: TOKEN,
      pulls: [{ number: 1, base: { ref: 'main', rev: 'main' }, head: { ref: 'feature', rev: 'feature' } }],
    });
    try {
      let scopes = 0;
      const open = (store: KeyValueStore): Backend => {
        const name = `freshness-${++scopes}`;
        const baseUrl = `${server.origin}/s/${name}`;
        const auth = tokenAuth(TOKEN);
        let seen = 0;
        const configured = fetch(`${server.origin}/__control/${name}`, { method: 'POST', body: JSON.stringify({ latencyMs: LATENCY_MS }) });
        return {
          source: createGitHubSource({ owner: 'acme', repo: 'widgets', auth, baseUrl, wrapLoader: (loader, scope) => createCachedLoader(loader, store, scope) }),
          github: createGitHubApi({ owner: 'acme', repo: 'widgets', auth, baseUrl }),
          async take() {
            await configured;
            const stats = GitHubStats.parse(await (await fetch(`${server.origin}/__stats/${name}`)).json());
            const fresh = stats.requests.slice(seen);
            seen = stats.requests.length;
            const count = (part: string) => fresh.filter((request) => request.path.includes(part)).length;
            const kinds = `${count('/commits/')} commit, ${count('/git/trees/')} tree, ${count('/git/blobs/')} blob, ${count('/pulls/')} pull request, ${count('/graphql')} GraphQL`;
            return { count: fresh.length, rounds: rounds(fresh), kinds };
          },
        };
      };
      let edition = 0;
      const push = () => {
        repo.write('AGENTS.md', `# Rules at depth 0\n\nEdition ${++edition}.\n`);
        return repo.commitAll(`edition ${edition}`);
      };
      // Each task is pinned after the one before pushed its override, so each adds one a level higher.
      const overrides = [`${SHAPE.cwd}/AGENTS.override.md`, `${SHAPE.cwd.split('/').slice(0, -1).join('/')}/AGENTS.override.md`];
      const pushRule = () => {
        const path = overrides.shift() ?? '';
        repo.write(path, `# Override\n\nEdition ${++edition}.\n`);
        repo.commitAll(`override ${edition}`);
        return path;
      };
      const branch = await measure(open, { ref: 'main' }, push, pushRule);
      const pullRequest: PullRequestView = { number: 1, baseRef: 'main', headRef: 'feature', headSha: commit, fromFork: false };
      const pull = await measure(open, { base: repo.git('rev-parse', 'HEAD'), pullRequest }, push, pushRule);
      return [
        `github, turn 0 (for reference; read ahead over GraphQL as the Task object plans it): ${branch.turn0}`,
        `github, a later turn when nothing moved: ${branch.still}`,
        `github, a later turn after a push that changed AGENTS.md, cold (the KV holds turn 0's reads): ${branch.cold}`,
        `github, the same check warm (the new commit's tree in the KV): ${branch.warm}`,
        `github, a later turn after a push that adds an AGENTS.override.md in the working directory (the rule set changed; the file is brought), cold: ${branch.rule}`,
        `github, a pull request task (head and base read from GitHub), nothing moved / cold / warm / rule set changed: ${pull.still} / ${pull.cold} / ${pull.warm} / ${pull.rule}`,
      ];
    } finally {
      await server.close();
    }
  } finally {
    repo.remove();
  }
}

async function benchGitRemote(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'groundwork-bench-remote-'));
  const work: GitFixture = createGitRepo();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    serveWithHttpBackend({ projectRoot: root, pathInfo: decodeURIComponent(url.pathname), query: url.search.slice(1), env: gitEnv() }, req, res);
  });
  try {
    writeRepoShape(work, SHAPE);
    work.commitAll('bench');
    work.git('remote', 'add', 'origin', cloneBare(work, root, 'bench.git'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench.git`;
    const open = (store: KeyValueStore): Backend => {
      const requests: string[] = [];
      const counting = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
        const request = new Request(input, init);
        const path = new URL(request.url).pathname;
        requests.push(`${request.method} ${path.slice(path.lastIndexOf('/') + 1)}`);
        return fetch(request);
      };
      return {
        source: createRemoteGitSource(url, { fetch: counting, cache: { store } }),
        async take() {
          const fresh = requests.splice(0);
          const count = (part: string) => fresh.filter((request) => request.includes(part)).length;
          return { count: fresh.length, kinds: `${count('GET refs')} GET info/refs, ${count('POST git-upload-pack')} POST git-upload-pack` };
        },
      };
    };
    let edition = 0;
    const push = () => {
      work.write('AGENTS.md', `# Rules at depth 0\n\nEdition ${++edition}.\n`);
      const head = work.commitAll(`edition ${edition}`);
      work.git('push', '--quiet', 'origin', 'main');
      return head;
    };
    const pushRule = () => {
      const path = `${SHAPE.cwd}/AGENTS.override.md`;
      work.write(path, `# Override\n\nEdition ${++edition}.\n`);
      work.commitAll(`override ${edition}`);
      work.git('push', '--quiet', 'origin', 'main');
      return path;
    };
    const measured = await measure(open, { ref: 'main' }, push, pushRule);
    return [
      `git remote (smart HTTP), a later turn when nothing moved: ${measured.still}`,
      `git remote, a later turn after a push that changed AGENTS.md, cold (the KV holds turn 0's reads): ${measured.cold}`,
      `git remote, the same check warm (the new commit's tree in the KV): ${measured.warm}`,
      `git remote, a later turn after a push that adds an AGENTS.override.md in the working directory, cold: ${measured.rule}`,
    ];
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    work.remove();
    rmSync(root, { recursive: true, force: true });
  }
}

const GitHubStats = z.object({ requests: z.array(z.object({ method: z.string(), path: z.string(), status: z.number(), startedAt: z.number(), endedAt: z.number() })) });
