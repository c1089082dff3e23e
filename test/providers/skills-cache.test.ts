import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { grantCapabilities } from '../../src/context/capabilities.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { runProviders, type RunResult } from '../../src/context/runner.ts';
import { assembleFirstTurn } from '../../src/context/turn.ts';
import { SkillsConfigSchema } from '../../src/providers/skills/config.ts';
import { skillIndexKey, SKILLS_INDEX_SCHEMA } from '../../src/providers/skills/index-cache.ts';
import { createSkillsProvider } from '../../src/providers/skills/provider.ts';
import type { KeyValueStore } from '../../src/sources/key-value-store.ts';
import type { Snapshot } from '../../src/sources/snapshot.ts';
import { createTreeSnapshot, type TreeLoader } from '../../src/sources/tree-snapshot.ts';
import { taskView } from '../support/task.ts';
import { createMemoryTree, type MemoryTree } from '../support/memory-tree.ts';

const FILES = {
  '.agents/skills/release-notes/SKILL.md': '---\nname: release-notes\ndescription: Draft release notes. 🚀\n---\nCollect merged pull requests.\n',
  '.agents/skills/lint/SKILL.md': '---\nname: lint\ndescription: Run the linter.\n---\nRun `npm run lint`.\n',
  '.agents/skills/broken/SKILL.md': '---\nname: broken\n---\nNo description.\n',
};

let counter = 0;
/** Each test gets its own repository identity, so tests never share cache entries. */
function uniqueRepository(): string {
  counter++;
  return `https://git.example.test/skills-${counter}-${Date.now()}.git`;
}

const commitOf = (n: number) => n.toString(16).padStart(40, '0');

function snapshotAt(repository: string, commit: string, loader: TreeLoader): Snapshot {
  return createTreeSnapshot({ repository, commit, uri: (path) => `${repository}/${path}@${commit}`, loader });
}

async function run(snapshot: Snapshot, options: { request?: string; config?: unknown; cache?: KeyValueStore } = {}): Promise<RunResult> {
  return runProviders({
    registry: createRegistry([createSkillsProvider()]),
    selection: 'all',
    task: taskView({ commit: snapshot.commit, repository: snapshot.repository, request: options.request ?? 'Tidy up.' }),
    turn: 0,
    capabilities: grantCapabilities({ agent: { name: 'entry', capabilities: ['repo:read'] }, trusted: true, available: ['repo:read'] }),
    setups: options.config === undefined ? {} : { skills: { config: options.config } },
    snapshot,
    cache: options.cache ?? env.CACHE,
    totalBudget: 10_000,
  });
}

const loaderCalls = (tree: MemoryTree) => tree.calls.tree + tree.calls.blobs.length;

describe('the skills index cache in KV', () => {
  it('serves a second run on the same commit with zero source reads', async () => {
    const tree = await createMemoryTree(FILES);
    const repository = uniqueRepository();
    const cold = await run(snapshotAt(repository, commitOf(1), tree.loader));
    expect(tree.calls.tree).toBe(1);
    expect(tree.calls.blobs).toHaveLength(3);

    const before = loaderCalls(tree);
    const warm = await run(snapshotAt(repository, commitOf(1), tree.loader));
    expect(loaderCalls(tree)).toBe(before);
    expect(warm.entries.map(({ body, warnings, source }) => ({ body, warnings, source }))).toEqual(
      cold.entries.map(({ body, warnings, source }) => ({ body, warnings, source })),
    );
    expect(warm.entries[0]?.warnings).toEqual(['.agents/skills/broken/SKILL.md: skipped: frontmatter has no description [description-missing]']);
  });

  it('reads again for another commit or another config', async () => {
    const tree = await createMemoryTree(FILES);
    const repository = uniqueRepository();
    await run(snapshotAt(repository, commitOf(1), tree.loader));
    const afterFirst = loaderCalls(tree);
    await run(snapshotAt(repository, commitOf(2), tree.loader));
    expect(tree.calls.tree).toBe(2);
    const afterSecond = loaderCalls(tree);
    expect(afterSecond).toBeGreaterThan(afterFirst);
    await run(snapshotAt(repository, commitOf(2), tree.loader), { config: { maxDepth: 3 } });
    expect(loaderCalls(tree)).toBeGreaterThan(afterSecond);
  });

  it('reads only the selected SKILL.md on a cache hit', async () => {
    const tree = await createMemoryTree(FILES);
    const repository = uniqueRepository();
    await run(snapshotAt(repository, commitOf(1), tree.loader));
    tree.calls.tree = 0;
    tree.calls.blobs.length = 0;
    const warm = await run(snapshotAt(repository, commitOf(1), tree.loader), { request: 'use $lint' });
    expect(tree.calls.blobs).toEqual([tree.oidOf('.agents/skills/lint/SKILL.md')]);
    expect(warm.entries.map((entry) => [entry.title, entry.body])).toContainEqual(['Selected skill: lint', 'Run `npm run lint`.\n']);
  });

  it('ignores and rewrites a corrupt or old-schema value', async () => {
    const repository = uniqueRepository();
    const key = await skillIndexKey(snapshotAt(repository, commitOf(1), (await createMemoryTree({})).loader), SkillsConfigSchema.parse({}));
    expect(new TextEncoder().encode(key).byteLength).toBeLessThanOrEqual(512);
    const forged = { schema: SKILLS_INDEX_SCHEMA - 1, skills: [{ name: 'forged', description: 'Not from the repository.', path: 'x/SKILL.md' }], warnings: [] };
    for (const stored of ['{"skills": [', JSON.stringify(forged)]) {
      const tree = await createMemoryTree(FILES);
      await env.CACHE.put(key, stored);
      const result = await run(snapshotAt(repository, commitOf(1), tree.loader));
      expect(tree.calls.tree).toBe(1);
      expect(result.entries[0]?.body).not.toContain('forged');
      expect(result.entries[0]?.body).toContain('- release-notes: Draft release notes. 🚀 (.agents/skills/release-notes/SKILL.md)');
      const rewritten: unknown = JSON.parse((await env.CACHE.get(key, 'text')) ?? 'null');
      expect(rewritten).toMatchObject({ schema: SKILLS_INDEX_SCHEMA, skills: [{ name: 'lint' }, { name: 'release-notes' }] });
    }
  });

  it('does not cache an index built while the source was failing', async () => {
    const tree = await createMemoryTree(FILES);
    const repository = uniqueRepository();
    let failing = true;
    const flaky: TreeLoader = {
      loadTree: (signal) => tree.loader.loadTree(signal),
      loadBlob: (oid, signal) => (failing ? Promise.reject(new Error('upstream 503')) : tree.loader.loadBlob(oid, signal)),
      loadCommit: (signal) => tree.loader.loadCommit(signal),
    };
    const first = await run(snapshotAt(repository, commitOf(1), flaky));
    // A source that could not be read is a failure, never an empty index.
    expect(first.outcomes[0]).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/^could not read \.agents\/skills\/[a-z-]+\/SKILL\.md: upstream 503$/) });
    expect(first.entries).toEqual([]);
    failing = false;
    const second = await run(snapshotAt(repository, commitOf(1), flaky));
    expect(second.entries[0]?.body).toContain('- lint: Run the linter.');
  });

  it('builds the index from what the snapshot holds without asking the store, and stores it after (once) through the deferred writes', async () => {
    const tree = await createMemoryTree(FILES);
    const repository = uniqueRepository();
    const blobs = new Map<string, Uint8Array>();
    for (const path of Object.keys(FILES)) blobs.set(tree.oidOf(path), await tree.loader.loadBlob(tree.oidOf(path)));
    // The loader holds every blob (as a read-ahead's are held) and the whole tree is loaded.
    const holding: TreeLoader = { ...tree.loader, heldBlob: (oid) => blobs.get(oid) };
    const gets: string[] = [];
    const puts: string[] = [];
    const deferred: Array<() => Promise<unknown>> = [];
    const store: KeyValueStore = {
      get: (key, type) => (gets.push(key), env.CACHE.get(key, type)),
      put: (key, value, options) => (puts.push(key), env.CACHE.put(key, value, options)),
      defer: (write) => void deferred.push(write),
    };
    const runWith = async (snapshot: Snapshot) => {
      await snapshot.list('');
      tree.calls.blobs.length = 0;
      return run(snapshot, { cache: store });
    };

    const built = await runWith(snapshotAt(repository, commitOf(1), holding));
    expect(built.entries[0]?.body).toContain('- lint: Run the linter.');
    expect({ gets: gets.length, puts: puts.length, loads: tree.calls.blobs.length }).toEqual({ gets: 0, puts: 0, loads: 0 });
    // The deferred step reads the store first and writes what it lacks.
    await Promise.all(deferred.splice(0).map((write) => write()));
    expect({ gets: gets.length, puts: puts.length }).toEqual({ gets: 1, puts: 1 });

    // A snapshot that holds nothing is served by the store; one that holds it all builds again, and writes nothing new.
    const served = await run(snapshotAt(repository, commitOf(1), tree.loader), { cache: store });
    expect(served.entries[0]?.body).toBe(built.entries[0]?.body);
    expect(tree.calls.blobs).toEqual([]);
    await runWith(snapshotAt(repository, commitOf(1), holding));
    await Promise.all(deferred.splice(0).map((write) => write()));
    expect({ gets: gets.length, puts: puts.length }).toEqual({ gets: 3, puts: 1 });
  });

  it('reads nothing for an untrusted task and renders a notice instead', async () => {
    const tree = await createMemoryTree(FILES);
    const agent = resolveAgent('entry');
    if (!agent.ok) throw new Error(agent.error);
    const snapshot = snapshotAt(uniqueRepository(), commitOf(1), tree.loader);
    const turn = await assembleFirstTurn({
      registry: createRegistry([createSkillsProvider()]),
      agent: agent.agent,
      available: ['repo:read'],
      task: taskView({ commit: snapshot.commit, trusted: false, request: 'use $lint' }),
      turn: 0,
      snapshot,
      cache: env.CACHE,
    });
    expect(loaderCalls(tree)).toBe(0);
    expect(turn.providers[0]).toMatchObject({ name: 'skills', outcome: 'capability-gated' });
    expect(turn.messages.find((message) => message.role === 'user')?.content).toMatch(/<groundwork-notice boundary="[0-9a-f]{16}" provider="skills">/);
  });
});
