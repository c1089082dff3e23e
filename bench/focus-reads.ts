/**
 * GitHub reads of a pull request task whose changed files are in 20 directories (issue 23 §7),
 * REST vs GraphQL side by side in one run against the local GitHub API server, the way the Task
 * object assembles turn 0: the host lists the pull request's files once (task-facts and rules
 * both use that listing), the read plan covers every focus directory, then the default
 * providers run at the base commit. Cold (nothing cached), then warm (the same KV cache, as the
 * next task on that base finds it). Rounds are counted on the client from what each request
 * waited for (test/support/request-rounds), never from wall-clock overlap. Both sides must give
 * every package's rules and the same digest, or the bench fails.
 */
import { generateKeyPairSync } from 'node:crypto';
import { resolveAgent } from '../src/context/agent-catalog.ts';
import { FOCUS_LIMITS } from '../src/context/focus.ts';
import { NOT_MOVED, type Capability, type TaskView } from '../src/context/provider.ts';
import { planReads } from '../src/context/read-ahead.ts';
import { assembleFirstTurn } from '../src/context/turn.ts';
import { createDefaultRegistry } from '../src/providers/registry.ts';
import { focusDirectories } from '../src/providers/rules/chain.ts';
import { createCachedLoader } from '../src/sources/cached-loader.ts';
import { createGitHubSource, tokenAuth } from '../src/sources/github/index.ts';
import { createGitHubApi } from '../src/sources/github/pull-request-files.ts';
import type { KeyValueStore } from '../src/sources/key-value-store.ts';
import { TaskRequestSchema } from '../src/tasks/task-request.ts';
import { firstTurnFocus } from '../src/tasks/turn-focus.ts';
import { createGitRepo, type GitFixture } from '../test/support/git-fixtures.ts';
import { startGitHubServerThread } from '../test/support/github-server-thread.ts';
import { createRoundCounter } from '../test/support/request-rounds.ts';

const LATENCY_MS = 100;
export const FOCUS_TOKEN = 'ghp_bench_focus';
const TOKEN = FOCUS_TOKEN;
export const PACKAGES = 20;
export const PULL = 12;

export async function benchFocusReads(): Promise<string[]> {
  const repo = createGitRepo();
  try {
    const { base, head } = buildMonorepo(repo);
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const server = await startGitHubServerThread({
      repoDir: repo.dir,
      owner: 'acme',
      repo: 'mono',
      appId: '1',
      installationId: 1,
      appPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      personalToken: TOKEN,
      pulls: [{ number: PULL, base: { ref: 'main', rev: base }, head: { ref: 'change', rev: head }, title: 'Touch every package' }],
    });
    try {
      await control(server.origin, 'focus', LATENCY_MS);
      // Untimed warm-up: the server's first answers (git processes, JIT) are slower than later ones.
      await run(server.origin, 'graphql', { base, head }, mapStore()).catch(() => undefined);
      const sides: Array<{ reads: 'rest' | 'graphql'; cold: Measured; warm: Measured }> = [];
      for (const reads of ['rest', 'graphql'] as const) {
        const cache = mapStore();
        const cold = await run(server.origin, reads, { base, head }, cache);
        const warm = await run(server.origin, reads, { base, head }, cache);
        sides.push({ reads, cold, warm });
      }
      const [rest, graphql] = sides;
      if (!rest || !graphql) throw new Error('two sides expected');
      if (rest.cold.digest !== graphql.cold.digest || rest.warm.digest !== rest.cold.digest || graphql.warm.digest !== graphql.cold.digest) {
        throw new Error('focus reads: REST, GraphQL, cold and warm contexts differ');
      }
      const describe = (side: (typeof sides)[number]) => `${side.reads === 'rest' ? 'REST' : 'GraphQL'} cold ${side.cold.text}, warm ${side.warm.text}`;
      return [
        `github reads, pull request changing ${PACKAGES} files in ${PACKAGES} directories (${rest.cold.directories} chain directories, ${rest.cold.rules} rules files) at ${LATENCY_MS} ms latency, rounds counted from what each request waited for: ${describe(rest)}; ${describe(graphql)} (same digest; goal GraphQL cold <= 2 rounds: the files, then one GraphQL read of the plan; warm: the files only)`,
      ];
    } finally {
      await server.close();
    }
  } finally {
    repo.remove();
  }
}

/** A root AGENTS.md, one per package, a few skills; the change edits one file in each package's src/. */
export function buildMonorepo(repo: GitFixture): { base: string; head: string } {
  repo.write('AGENTS.md', '# Monorepo rules\n\nRun the tests of every package you touch.\n');
  for (let i = 1; i <= PACKAGES; i++) {
    const name = `p${String(i).padStart(2, '0')}`;
    repo.write(`packages/${name}/AGENTS.md`, `# ${name}\n\nThis package keeps its public API in src/index.ts.\n`);
    repo.write(`packages/${name}/src/index.ts`, `export const name = '${name}';\n`);
  }
  for (let i = 1; i <= 5; i++) repo.write(`.agents/skills/skill-${i}/SKILL.md`, `---\nname: skill-${i}\ndescription: Skill number ${i}.\n---\nDo thing ${i}.\n`);
  const base = repo.commitAll('monorepo');
  repo.git('checkout', '--quiet', '-b', 'change');
  for (let i = 1; i <= PACKAGES; i++) repo.write(`packages/p${String(i).padStart(2, '0')}/src/index.ts`, `export const name = 'changed ${i}';\n`);
  const head = repo.commitAll('touch every package');
  repo.git('checkout', '--quiet', 'main');
  return { base, head };
}

interface Measured {
  digest: string;
  text: string;
  directories: number;
  rules: number;
}

/** Turn 0 of the pull request task at `pin`, assembled in this process as the Task object does; what it read and cost. */
export async function run(origin: string, reads: 'rest' | 'graphql', pin: { base: string; head: string }, cache: KeyValueStore): Promise<Measured> {
  const counter = createRoundCounter();
  const fetch = counter.wrap((input, init) => globalThis.fetch(input, init));
  const client = { owner: 'acme', repo: 'mono', auth: tokenAuth(TOKEN), baseUrl: `${origin}/s/focus`, fetch };
  const source = createGitHubSource({ ...client, reads, wrapLoader: (loader, at) => createCachedLoader(loader, cache, at) });
  const github = createGitHubApi(client);
  const lookup = resolveAgent('reviewer');
  if (!lookup.ok) throw new Error(lookup.error);
  const agent = lookup.agent;
  const registry = createDefaultRegistry();
  const available: Capability[] = ['repo:read', 'github:api'];
  const request = TaskRequestSchema.parse({
    origin: 'github',
    tenant: 'github:1',
    repo: 'acme/mono',
    baseCommit: pin.base,
    request: 'Review this pull request.',
    agent: agent.name,
    pullRequest: { number: PULL, headSha: pin.head, fromFork: false, changedFiles: PACKAGES },
  });
  const pr = request.pullRequest;
  if (!pr) throw new Error('no pull request');
  const task: TaskView = {
    request: request.request,
    origin: 'github',
    repository: source.repository,
    headCommit: pin.head,
    headFromFork: false,
    pullRequest: pr,
    cwd: '',
    focusPaths: [],
    trusted: true,
    skills: [],
    agent: agent.name,
  };
  const started = performance.now();
  const focus = await firstTurnFocus({
    request,
    plan: { registry, agent, task, turn: 0, available },
    github,
    posted: { through: () => 0, between: () => NOT_MOVED },
    signal: AbortSignal.timeout(60_000),
    progress: () => undefined,
  });
  const view: TaskView = { ...task, focusPaths: focus.paths, commit: pin.base };
  const plan = planReads({ registry, agent, task: view, turn: 0, available, focusFiles: focus.files });
  const turn = await assembleFirstTurn({
    registry,
    agent,
    available,
    snapshot: source.snapshot(pin.base, { plan }),
    source,
    github,
    task: view,
    turn: 0,
    focusFiles: focus.files,
    ...(focus.pullRequestFiles ? { pullRequestFiles: focus.pullRequestFiles } : {}),
    cache,
  });
  const ms = performance.now() - started;
  const rules = turn.entries.filter((entry) => entry.provider === 'rules');
  if (rules.length !== PACKAGES + 1) throw new Error(`${reads}: expected ${PACKAGES + 1} rules files, got ${rules.map((entry) => entry.title).join(', ')}: ${JSON.stringify(turn.providers)} focus ${JSON.stringify(focus)}`);
  const failed = turn.providers.filter((outcome) => outcome.outcome === 'failed' || outcome.outcome === 'timed-out');
  if (failed.length > 0) throw new Error(`${reads}: providers failed: ${JSON.stringify(failed)}`);
  const requests = counter.requests();
  const count = (part: string) => requests.filter((request) => request.url.includes(part)).length;
  const parts = [`${count('/pulls/')} files`, `${count('/graphql')} GraphQL`, `${count('/git/trees/')} tree`, `${count('/git/blobs/')} blob`, `${count('/git/commits/')} commit`].join(', ');
  return {
    digest: turn.digest,
    text: `${requests.length} requests (${parts}) in ${counter.rounds()} rounds, ${ms.toFixed(0)} ms`,
    directories: focusDirectories('', focus.paths, { files: focus.files, max: FOCUS_LIMITS.directories }).dirs.length,
    rules: rules.length,
  };
}

async function control(origin: string, scope: string, latencyMs: number): Promise<void> {
  const response = await fetch(`${origin}/__control/${scope}`, { method: 'POST', body: JSON.stringify({ latencyMs }) });
  if (!response.ok) throw new Error(`control endpoint answered ${response.status}`);
}

/** A KV stand-in the cold and warm runs of one side share, as KV is shared by every isolate. */
export function mapStore(): KeyValueStore {
  const values = new Map<string, string>();
  return { get: async (key) => values.get(key) ?? null, put: async (key, value) => void values.set(key, value) };
}
