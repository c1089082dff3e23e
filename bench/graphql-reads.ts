/**
 * GitHub reads, REST vs GraphQL read-ahead (issue 14), side by side in one run against the local
 * GitHub API server at 300 ms latency, through the real rules and skills providers with the
 * plan the Task object builds:
 * - cold from a branch, rules chain of depth 5 + 30 skills (one selected);
 * - the same with a 2 MB root AGENTS.md, which GraphQL truncates (one REST fallback);
 * - a repository with 300 skills.
 * Each GraphQL turn must equal its REST turn (digest) or the bench fails.
 */
import { generateKeyPairSync } from 'node:crypto';
import { z } from 'zod';
import { resolveAgent } from '../src/context/agent-catalog.ts';
import { planReads } from '../src/context/read-ahead.ts';
import type { SettingsLayer } from '../src/context/settings/layer.ts';
import { createRegistry } from '../src/context/registry.ts';
import { assembleFirstTurn } from '../src/context/turn.ts';
import { createRulesProvider } from '../src/providers/rules/provider.ts';
import { createSkillsProvider } from '../src/providers/skills/provider.ts';
import { createGitHubSource, tokenAuth } from '../src/sources/github/index.ts';
import { createGitRepo } from '../test/support/git-fixtures.ts';
import { rounds } from '../test/support/github-api-scope.ts';
import { startGitHubServerThread } from '../test/support/github-server-thread.ts';
import { repoShape, writeRepoShape } from './repo-shape.ts';

const LATENCY_MS = 300;
const TOKEN = 'ghp_bench_graphql';
const CWD = 'a/b/c/d/e';

const StatsSchema = z.object({ requests: z.array(z.object({ method: z.string(), path: z.string(), status: z.number(), startedAt: z.number(), endedAt: z.number() })) });

interface Shape {
  name: string;
  build(repo: ReturnType<typeof createGitRepo>): void;
  /** Providers' config, e.g. a larger maxDirectories for 300 skills. */
  /** Host settings, as a deployment's PROVIDER_CONFIG gives them. */
  configs?: SettingsLayer;
}

const shapes: Shape[] = [
  { name: 'rules chain depth 5 + 30 skills', build: (repo) => writeRepoShape(repo, repoShape(CWD)) },
  {
    name: 'the same with a 2 MB root AGENTS.md',
    build: (repo) => {
      writeRepoShape(repo, repoShape(CWD));
      repo.write('AGENTS.md', `# Rules\n\n${'Keep every change small and tested. '.repeat(60_000)}\n`);
    },
    configs: { rules: { maxFileBytes: 4 * 1024 * 1024 } },
  },
  {
    name: 'rules chain depth 5 + 300 skills',
    build: (repo) => {
      writeRepoShape(repo, repoShape(CWD));
      for (let i = 31; i <= 300; i++) repo.write(`.agents/skills/skill-${i}/SKILL.md`, `---\nname: skill-${i}\ndescription: Skill number ${i}.\n---\nDo thing ${i}.\n`);
    },
    configs: { skills: { maxDirectories: 400 } },
  },
];

export async function benchGraphQLReads(): Promise<string[]> {
  const lines: string[] = [];
  for (const shape of shapes) lines.push(...(await benchShape(shape)));
  return lines;
}

async function benchShape(shape: Shape): Promise<string[]> {
  const repo = createGitRepo();
  try {
    shape.build(repo);
    repo.commitAll('bench');
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const server = await startGitHubServerThread({
      repoDir: repo.dir,
      owner: 'acme',
      repo: 'widgets',
      appId: '1',
      installationId: 1,
      appPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      personalToken: TOKEN,
    });
    try {
      // Untimed warm-up: the server's first answers (git processes, JIT) are slower than later ones.
      await run(server.origin, 'warmup', 'graphql', shape);
      // One scope for both sides: links in the context carry the API base URL.
      const rest = await run(server.origin, 'side-by-side', 'rest', shape);
      const graphql = await run(server.origin, 'side-by-side', 'graphql', shape);
      if (rest.digest !== graphql.digest) throw new Error(`${shape.name}: GraphQL and REST contexts differ`);
      return [`github reads, ${shape.name}, cold from branch 'main' at ${LATENCY_MS} ms latency: REST ${rest.text}; GraphQL ${graphql.text} (same digest)`];
    } finally {
      await server.close();
    }
  } finally {
    repo.remove();
  }
}

async function run(origin: string, scope: string, reads: 'rest' | 'graphql', shape: Shape): Promise<{ digest: string; text: string }> {
  const response = await fetch(`${origin}/__control/${scope}`, { method: 'POST', body: JSON.stringify({ latencyMs: LATENCY_MS }) });
  if (!response.ok) throw new Error(`control endpoint answered ${response.status}`);
  const stats = async () => StatsSchema.parse(await (await fetch(`${origin}/__stats/${scope}`)).json()).requests;
  const before = (await stats()).length;
  const source = createGitHubSource({ owner: 'acme', repo: 'widgets', auth: tokenAuth(TOKEN), baseUrl: `${origin}/s/${scope}`, reads });
  const lookup = resolveAgent('entry');
  if (!lookup.ok) throw new Error(lookup.error);
  const registry = createRegistry([createRulesProvider({ timeoutMs: 60_000 }), createSkillsProvider({ timeoutMs: 60_000 })]);
  const task = { request: 'Use $skill-07.', origin: 'cli' as const, repository: source.repository, cwd: CWD, focusPaths: [], trusted: true, skills: [], agent: lookup.agent.name };
  const configs = shape.configs ?? {};
  const started = performance.now();
  const plan = planReads({ registry, agent: lookup.agent, task, turn: 0, available: ['repo:read'], settings: { deployment: configs } });
  const resolved = await source.resolve('main', { plan });
  if (resolved.status !== 'ok') throw new Error(`resolve main: ${resolved.status}`);
  const turn = await assembleFirstTurn({ registry, agent: lookup.agent, available: ['repo:read'], snapshot: source.snapshot(resolved.commit, { plan }), task: { ...task, commit: resolved.commit }, turn: 0, settings: { deployment: configs } });
  const ms = performance.now() - started;
  const failed = turn.providers.filter((outcome) => outcome.outcome !== 'included');
  if (failed.length > 0) throw new Error(`${shape.name} (${reads}): providers not included: ${JSON.stringify(failed)}`);
  const requests = (await stats()).slice(before);
  const count = (part: string) => requests.filter((request) => request.path.includes(part)).length;
  const parts = [`${count('/graphql')} GraphQL`, `${count('/commits/')} commit`, `${count('/git/trees/')} tree`, `${count('/git/blobs/')} blob`].join(', ');
  return { digest: turn.digest, text: `${requests.length} requests (${parts}), ${rounds(requests)} rounds, ${ms.toFixed(0)} ms` };
}
