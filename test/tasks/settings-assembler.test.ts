import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createTaskAssembler } from '../../durable-objects/task-assembler.ts';
import { storedAssemblerDeps, taskStoreOf } from '../support/task-object.ts';
import { TurnLedger } from '../../durable-objects/turn-ledger.ts';
import { createTreeSnapshot } from '../../src/sources/tree-snapshot.ts';
import type { ReadResult, RepositorySource } from '../../src/sources/snapshot.ts';
import { TaskRequestSchema, type TaskRequestInput } from '../../src/tasks/task-request.ts';
import { createMemoryTree, type MemoryFile } from '../support/memory-tree.ts';
import { rulesAndSkills, skill } from '../support/settings.ts';

const BASE = '1'.repeat(40);
const HEAD = '2'.repeat(40);

/** A source with two commits: a pull request's trusted base and its head. */
async function twoCommits(files: Record<string, Record<string, MemoryFile>>): Promise<RepositorySource> {
  const trees = new Map(await Promise.all(Object.entries(files).map(async ([commit, tree]) => [commit, await createMemoryTree(tree)] as const)));
  return {
    repository: 'memory:pr',
    resolve: async () => ({ status: 'ok', commit: HEAD }),
    snapshot: (commit) => {
      const tree = trees.get(commit);
      if (!tree) throw new Error(`no commit ${commit}`);
      return createTreeSnapshot({ repository: 'memory:pr', commit, uri: (path) => `memory:${path}@${commit}`, loader: tree.loader });
    },
  };
}

async function assembleTurn0(request: TaskRequestInput, source: RepositorySource, deployment?: Record<string, Record<string, unknown>>) {
  const stub = env.TASKS.get(env.TASKS.newUniqueId());
  return runInDurableObject(stub, async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    store.insertTask('t', TaskRequestSchema.parse(request), 0, 1);
    const assemble = createTaskAssembler({
      registry: rulesAndSkills(),
      ...(deployment ? { deployment } : {}),
      openSource: async () => ({ source }),
      ...storedAssemblerDeps(store, state.storage.sql),
    });
    const result = await new TurnLedger({ store, assemble }).begin(0);
    if (result.status !== 'ok') throw new Error(result.status);
    // What the object stores is what GET /tasks/:id/turns/0 shows.
    return store.turn(0);
  });
}

describe('settings in the Task object', () => {
  it("reads a pull request's .groundwork.yml at the trusted base, never at the head, under the deployment's settings", async () => {
    const source = await twoCommits({
      [BASE]: { 'AGENTS.md': 'Base rules.\n', 'GEMINI.md': 'Gemini base.\n', '.groundwork.yml': 'providers:\n  rules: { filenames: [GEMINI.md] }\n' },
      [HEAD]: { 'AGENTS.md': 'Head rules.\n', '.groundwork.yml': 'providers:\n  rules: { enabled: false }\n  skills: { enabled: false }\n' },
    });
    const record = await assembleTurn0(
      {
        origin: 'github',
        tenant: 'github:1',
        repo: 'acme/widgets',
        baseCommit: BASE,
        request: 'Review this pull request.',
        agent: 'reviewer',
        pullRequest: { number: 7, headSha: HEAD, fromFork: true },
      },
      source,
      { skills: { budget: 1_000 } },
    );
    expect(record?.entries.map((entry) => [entry.title, entry.source.revision])).toEqual([['GEMINI.md', BASE]]);
    expect(record?.providers.map((provider) => [provider.name, provider.outcome])).toEqual([
      ['rules', 'included'],
      ['skills', 'empty'],
    ]);
    expect(record?.settings?.layers).toEqual([
      { layer: 'deployment', status: 'applied', source: 'PROVIDER_CONFIG' },
      { layer: 'repository', status: 'applied', source: `.groundwork.yml@${BASE}` },
      { layer: 'task', status: 'none' },
    ]);
    expect(record?.settings?.providers.find((provider) => provider.name === 'skills')).toMatchObject({ budget: 1_000, set: { budget: 'deployment' } });
  });

  it("applies a Slack task's deployment and repository layers, with no task layer", async () => {
    const source = await twoCommits({
      [HEAD]: { '.opencode/skills/release/SKILL.md': skill('release'), '.groundwork.yml': 'providers:\n  skills: { roots: [".opencode/skills/*"] }\n' },
    });
    const record = await assembleTurn0({ origin: 'slack', tenant: 'slack:T1', repo: 'acme/widgets', request: 'Cut a release with $release.' }, source, {
      rules: { enabled: false },
    });
    expect(record?.providers.map((provider) => [provider.name, provider.outcome, provider.reason])).toEqual([
      ['rules', 'disabled', 'turned off by PROVIDER_CONFIG (enabled: false)'],
      ['skills', 'included', 'settings: roots=[".opencode/skills/*"] (.groundwork.yml)'],
    ]);
    expect(record?.entries.map((entry) => entry.title)).toEqual(['Skills index', 'Selected skill: release']);
  });

  /** A source whose `.groundwork.yml` answers `answer(signal)`, the snapshot's signal recorded beside the read's. */
  async function watchedSettings(answer: (path: string, signal: AbortSignal | undefined) => Promise<ReadResult>) {
    const tree = await createMemoryTree({ 'AGENTS.md': 'Rules.\n', '.groundwork.yml': 'providers: {}\n' });
    const seen: { snapshot?: AbortSignal | undefined; read?: AbortSignal | undefined } = {};
    const source: RepositorySource = {
      repository: 'memory:slow-settings',
      resolve: async () => ({ status: 'ok', commit: HEAD }),
      snapshot: (commit, options) => {
        seen.snapshot = options?.signal;
        const inner = createTreeSnapshot({ repository: 'memory:slow-settings', commit, uri: (path) => `memory:${path}@${commit}`, loader: tree.loader });
        return {
          ...inner,
          read: (path, readOptions) => {
            if (path !== '.groundwork.yml') return inner.read(path, readOptions);
            seen.read = readOptions?.signal;
            return answer(path, readOptions?.signal);
          },
        };
      },
    };
    return { source, seen };
  }

  it("waits for the repository's settings under the attempt's own deadline, not a shorter one of the read's", async () => {
    // Answered a few event-loop turns later, as a shared read-ahead is: when, does not matter.
    const { source, seen } = await watchedSettings(async (path) => {
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
      return { status: 'missing', path };
    });
    const record = await assembleTurn0({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request: 'x' }, source);
    // The read waited under exactly the attempt's signal (the snapshot's), with no deadline of its own.
    expect(seen.snapshot).toBeInstanceOf(AbortSignal);
    expect(seen.read).toBe(seen.snapshot);
    expect(record?.settings?.layers[1]).toEqual({ layer: 'repository', status: 'none', reason: 'no .groundwork.yml at this commit' });
    expect(record?.providers.map((provider) => [provider.name, provider.outcome])).toEqual([
      ['rules', 'included'],
      ['skills', 'empty'],
    ]);
  });

  it("fails the attempt, to be retried, when the repository's settings could not be read: no turn is stored without them", async () => {
    const { source } = await watchedSettings(async (path) => ({ status: 'failed', path, reason: 'HTTP 502' }));
    await expect(assembleTurn0({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request: 'x' }, source)).rejects.toThrow(
      "the repository's settings could not be read: .groundwork.yml could not be read: HTTP 502",
    );
  });
});
