/**
 * @module test/support/github-assembly
 * Assembles a first turn from the GitHub API test server the way the Task object does: plan the
 * providers' reads, resolve the ref with the plan (unless a commit is pinned), snapshot at the
 * commit with the plan, run the real rules and skills providers. REST and GraphQL sources go
 * through the same steps, so their turns can be compared byte for byte.
 *
 * No deadline decides what these tests see: they count requests and compare turns, and on a
 * loaded machine a read can outlast any deadline short enough to matter (the settings file's
 * 3 s, a provider's 5 s, the system provider's 3 s for the commit date and inventory). So the
 * assembly runs under a signal, as the Task object's does under its attempt's deadline (the
 * settings file is then read under that signal alone), and every provider's deadline and the
 * system provider's read deadline are past the test's own timeout. The tests about deadlines
 * drive them elsewhere (test/bounds, test/context/runner).
 */
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { planReads } from '../../src/context/read-ahead.ts';
import type { SettingsLayer } from '../../src/context/settings/layer.ts';
import { assembleFirstTurn } from '../../src/context/turn.ts';
import type { AssembledTurn } from '../../src/context/turn-schema.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import { createCachedLoader } from '../../src/sources/cached-loader.ts';
import { createGitHubSource, tokenAuth } from '../../src/sources/github/index.ts';
import type { KeyValueStore } from '../../src/sources/key-value-store.ts';
import { COMMIT_SHA } from '../../src/sources/snapshot.ts';
import type { ApiScope } from './github-api-client.ts';
import { githubFixture } from './github-api-client.ts';

export interface AssemblyCase {
  ref: string;
  cwd?: string;
  request?: string;
  agent?: string;
  skills?: string[];
  /** Host settings, as a deployment's PROVIDER_CONFIG gives them. */
  configs?: SettingsLayer;
}

/** Past every test's own timeout (vitest.config.ts). */
const UNREACHED_MS = 600_000;
const registry = createRegistry(createDefaultRegistry().providers.map((provider) => ({ ...provider, timeoutMs: UNREACHED_MS })));

/** `fetch`: what the source sends requests with, e.g. `requestWaves().fetch` to count rounds. */
export async function assembleFromGitHub(scope: ApiScope, reads: 'rest' | 'graphql', c: AssemblyCase, cache?: KeyValueStore, fetch?: typeof globalThis.fetch): Promise<AssembledTurn> {
  const fx = githubFixture();
  const source = createGitHubSource({
    owner: fx.owner,
    repo: fx.repo,
    auth: tokenAuth(fx.token),
    baseUrl: scope.baseUrl,
    retry: { baseDelayMs: 5 },
    reads,
    ...(fetch ? { fetch } : {}),
    ...(cache ? { wrapLoader: (loader, at) => createCachedLoader(loader, cache, at) } : {}),
  });
  const lookup = resolveAgent(c.agent ?? 'entry');
  if (!lookup.ok) throw new Error(lookup.error);
  const task = {
    request: c.request ?? 'Fix the parser.',
    origin: 'api' as const,
    repository: source.repository,
    cwd: c.cwd ?? '',
    focusPaths: [],
    trusted: true,
    skills: c.skills ?? [],
    agent: lookup.agent.name,
  };
  const configs: SettingsLayer = { ...c.configs, system: { readTimeoutMs: UNREACHED_MS, ...c.configs?.['system'] } };
  const plan = planReads({ registry, agent: lookup.agent, task, turn: 0, available: ['repo:read'], settings: { deployment: configs } });
  let commit = c.ref;
  if (!COMMIT_SHA.test(c.ref)) {
    const resolved = await source.resolve(c.ref, { plan });
    if (resolved.status !== 'ok') throw new Error(`resolve ${c.ref}: ${resolved.status}`);
    commit = resolved.commit;
  }
  return assembleFirstTurn({
    registry,
    agent: lookup.agent,
    available: ['repo:read'],
    snapshot: source.snapshot(commit, { plan }),
    task: { ...task, commit },
    turn: 0,
    settings: { deployment: configs },
    signal: new AbortController().signal,
    ...(cache ? { cache } : {}),
  });
}

/** The turn without wall-clock durations, which are the only values allowed to differ. */
export function comparable(turn: AssembledTurn): unknown {
  return { ...turn, providers: turn.providers.map(({ durationMs: _, ...rest }) => rest) };
}
