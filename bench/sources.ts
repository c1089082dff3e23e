/**
 * Repository source benchmarks (issue 3):
 * - GitHub API round trips of a cold assembly (rules chain of depth 5 + 30 skills, through the
 *   real providers) from a branch, from a pinned commit and from a pinned commit with a
 *   `.groundwork.yml` (the settings file is read before the providers), and of a warm one through the KV
 *   cache, against the local GitHub API server the tests use (on its own thread), with enough
 *   latency that parallel requests overlap.
 * - The local git source reading the same files from a large repository, divided by the git CLI
 *   doing the same reads, measured side by side in one run.
 */
import { z } from 'zod';
import { createCachedLoader } from '../src/sources/cached-loader.ts';
import { createLocalGitSource } from '../src/sources/git/local-source.ts';
import { createGitHubSource, tokenAuth } from '../src/sources/github/index.ts';
import type { KeyValueStore } from '../src/sources/key-value-store.ts';
import type { RepositorySource, Snapshot } from '../src/sources/snapshot.ts';
import { createGitRepo } from '../test/support/git-fixtures.ts';
import { readWithGitCli } from './git-cli-reads.ts';
import { buildLargeRepo } from './large-repo.ts';
import { startLocalGitHub } from './local-github.ts';
import { assembleWithProviders, readThroughSnapshot, repoShape, writeRepoShape, type RepoShape } from './repo-shape.ts';

/** Long enough that requests a caller issues together overlap at the server on a loaded 2-core machine. */
const LATENCY_MS = 300;
const OWNER = 'acme';
const REPO = 'widgets';
const TOKEN = 'ghp_bench_personal_token';

const StatsSchema = z.object({ count: z.number(), rounds: z.number(), requests: z.array(z.object({ path: z.string() })) });
type Stats = z.infer<typeof StatsSchema>;

export async function benchGitHubRoundTrips(): Promise<string[]> {
  const repo = createGitRepo();
  try {
    const shape = repoShape('a/b/c/d/e');
    writeRepoShape(repo, shape);
    repo.write('a/b/c/d/e/src/index.ts', 'export const deep = true;\n');
    repo.write('README.md', 'Benchmark fixture\n');
    const commit = repo.commitAll('bench');
    // The same tree plus a settings file that keeps the skills where they are, on a side branch so
    // that 'main' stays the plain tree: what reading the file costs.
    repo.git('checkout', '--quiet', '-b', 'with-settings');
    repo.write('.groundwork.yml', 'providers:\n  skills:\n    roots: [".agents/skills/*"]\n');
    const configured = repo.commitAll('bench with settings');
    repo.git('checkout', '--quiet', 'main');
    const server = await startLocalGitHub({ repoDir: repo.dir, owner: OWNER, repo: REPO, token: TOKEN });
    try {
      return await measureRoundTrips(server.origin, shape, commit, configured);
    } finally {
      await server.close();
    }
  } finally {
    repo.remove();
  }
}

/** Runs of each case; a round count is the fewest seen, because server-side queueing only ever adds rounds. */
const RUNS = 3;

interface Run {
  stats: Stats;
  ms: number;
}

async function measureRoundTrips(origin: string, shape: RepoShape, commit: string, configured: string): Promise<string[]> {
  let scopes = 0;
  /** One fresh source per run, on its own server scope so its requests are counted apart. */
  const run = async (open: (source: RepositorySource) => Promise<Snapshot>, store?: KeyValueStore): Promise<Run> => {
    const name = `bench-${++scopes}`;
    const response = await fetch(`${origin}/__control/${name}`, { method: 'POST', body: JSON.stringify({ latencyMs: LATENCY_MS }) });
    if (!response.ok) throw new Error(`control endpoint answered ${response.status}`);
    const source = createGitHubSource({
      owner: OWNER,
      repo: REPO,
      auth: tokenAuth(TOKEN),
      baseUrl: `${origin}/s/${name}`,
      ...(store ? { wrapLoader: (loader, scope) => createCachedLoader(loader, store, scope) } : {}),
    });
    const started = performance.now();
    await assembleWithProviders(await open(source), shape);
    const ms = performance.now() - started;
    return { stats: StatsSchema.parse(await (await fetch(`${origin}/__stats/${name}`)).json()), ms };
  };
  const runs = async (open: (source: RepositorySource) => Promise<Snapshot>, store?: KeyValueStore): Promise<Run[]> => {
    const done: Run[] = [];
    for (let i = 0; i < RUNS; i++) done.push(await run(open, store));
    return done;
  };
  const fromBranch = (source: RepositorySource) => resolvedSnapshot(source, 'main');
  const pinned = async (source: RepositorySource) => source.snapshot(commit);

  // Untimed: the server's first answers (git processes, JIT) are slower than any later ones.
  await run(fromBranch);
  const branch = await runs(fromBranch);
  const cold = await runs(pinned);
  const settled = await runs(async (source) => source.snapshot(configured));
  const store = mapStore();
  const fill = await run(pinned, store);
  const warm = await runs(pinned, store);

  const what = `rules chain depth ${shape.rulePaths.length - 1} + ${shape.skillPaths.length} skills via the rules and skills providers`;
  return [
    `github cold from branch 'main' (${what}): ${describe(branch)} (goal <= 3 rounds)`,
    `github cold from a pinned commit (${what}): ${describe(cold)} (goal <= 3 rounds)`,
    `github cold from a pinned commit with a .groundwork.yml (${what}): ${describe(settled)} (goal <= 3 rounds)`,
    `github warm on the same commit, tree + blobs from a Map-backed KV via createCachedLoader (filled by a cold run of ${fill.stats.count} requests): ${describe(warm)} (goal 0 requests)`,
  ];
}

async function resolvedSnapshot(source: RepositorySource, ref: string): Promise<Snapshot> {
  const resolved = await source.resolve(ref);
  if (resolved.status !== 'ok') throw new Error(`resolve ${ref}: ${resolved.status}`);
  return source.snapshot(resolved.commit);
}

function describe(runs: readonly Run[]): string {
  const best = runs.reduce((a, b) => (b.stats.rounds < a.stats.rounds ? b : a));
  const count = (part: string) => best.stats.requests.filter((request) => request.path.includes(part)).length;
  const parts = `${count('/commits/')} commit, ${count('/git/trees/')} tree, ${count('/git/blobs/')} blobs`;
  const counts = new Set(runs.map((run) => run.stats.count));
  const requests = counts.size === 1 ? `${best.stats.count} requests` : `${[...counts].join('/')} requests over the runs`;
  const rounds = runs.map((run) => run.stats.rounds).join(', ');
  const ms = median(runs.map((run) => run.ms)).toFixed(0);
  return `${requests} (${parts}), ${best.stats.rounds} sequential rounds at ${LATENCY_MS} ms latency (fewest of ${runs.length} runs: ${rounds}), median ${ms} ms`;
}

/** A KV store in a Map, as the Worker's CACHE namespace behaves for one isolate. */
export function mapStore(): KeyValueStore {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key) ?? null,
    put: async (key, value) => {
      values.set(key, value);
    },
  };
}

export async function benchLocalGitSource(repetitions = 7): Promise<string[]> {
  const large = buildLargeRepo();
  try {
    const { dir, shape } = large;
    // A fresh source each time: nothing (pack indexes, the tree) is carried over between repetitions.
    const openSnapshot = (): Promise<Snapshot> => resolvedSnapshot(createLocalGitSource(dir), 'HEAD');
    const sides = {
      local: async () => readThroughSnapshot(await openSnapshot(), shape),
      providers: async () => assembleWithProviders(await openSnapshot(), shape),
      cli: () => readWithGitCli(dir, shape),
    };

    // Untimed first round: both sides must read the same texts, and disk caches warm for both alike.
    const [local, cli] = [await sides.local(), await sides.cli()];
    await sides.providers();
    if (cli.size !== shape.rulePaths.length + shape.skillPaths.length || [...cli].some(([path, text]) => local.get(path) !== text)) {
      throw new Error('the local git source and the git CLI read different texts');
    }

    const times: Record<keyof typeof sides, number[]> = { local: [], cli: [], providers: [] };
    for (let rep = 0; rep < repetitions; rep++) {
      for (const side of ['local', 'cli', 'providers'] as const) {
        const started = performance.now();
        await sides[side]();
        times[side].push(performance.now() - started);
      }
    }
    const cliMs = median(times.cli);
    const ratio = (ms: number) => `${ms.toFixed(1)} ms / ${cliMs.toFixed(1)} ms = ${(ms / cliMs).toFixed(1)}x`;
    const size = `${large.files} files in ${large.dirs} directories, ${(large.packBytes / 1024 / 1024).toFixed(1)} MiB packed, ${large.looseObjects} loose objects`;
    return [
      `large repository for local reads: ${size}, from ${large.origins.join(', ')}; built in ${(large.buildMs / 1000).toFixed(1)} s`,
      `local git source / git CLI (resolve HEAD, list ${shape.rulePaths.length} chain dirs + read AGENTS.md, list .agents/skills + read ${shape.skillPaths.length} SKILL.md): median ${ratio(median(times.local))} over ${repetitions} reps`,
      `local git source through the rules and skills providers (assembleFirstTurn) / git CLI: median ${ratio(median(times.providers))} over ${repetitions} reps`,
    ];
  } finally {
    large.remove();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
