import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createTaskAssembler } from '../../durable-objects/task-assembler.ts';
import { storedAssemblerDeps, taskStoreOf } from '../support/task-object.ts';
import { TurnLedger } from '../../durable-objects/turn-ledger.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { createRulesProvider } from '../../src/providers/rules/provider.ts';
import { createTreeSnapshot, type TreeLoader } from '../../src/sources/tree-snapshot.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { contextItemId, TASK_ITEM_ID } from '../../src/tasks/transcript.ts';
import { createMemoryTree } from '../support/memory-tree.ts';
import { entry, fakeProvider } from '../support/providers.ts';
import { withoutBoundaries } from '../support/sections.ts';

const COMMIT = 'b'.repeat(40);

/** `failing` names the blobs (by path) whose every read fails, as an upstream 502 would. */
async function memorySource(files: Record<string, string>, failing: readonly string[] = []): Promise<{ source: RepositorySource; resolves: string[] }> {
  const tree = await createMemoryTree(files);
  const broken = new Set(failing.map((path) => tree.oidOf(path)));
  const loader: TreeLoader = {
    loadTree: (signal) => tree.loader.loadTree(signal),
    loadBlob: (oid, signal) => (broken.has(oid) ? Promise.reject(new Error('upstream 502')) : tree.loader.loadBlob(oid, signal)),
    loadCommit: (signal) => tree.loader.loadCommit(signal),
  };
  const resolves: string[] = [];
  return {
    resolves,
    source: {
      repository: 'memory:test',
      async resolve(ref) {
        resolves.push(ref);
        return { status: 'ok', commit: COMMIT };
      },
      snapshot: (commit, options) => createTreeSnapshot({ repository: 'memory:test', commit, uri: (path) => `memory:${path}@${commit}`, loader, ...options }),
    },
  };
}

const REPOSITORY = {
  'AGENTS.md': 'Use tabs.\n',
  '.agents/skills/lint/SKILL.md': '---\nname: lint\ndescription: Run the linter.\n---\nRun `npm run lint`.\n',
};

async function firstTurnOf(source: RepositorySource) {
  const stub = env.TASKS.get(env.TASKS.newUniqueId());
  return runInDurableObject(stub, async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.' }), 0, 1);
    const ledger = new TurnLedger({
      store,
      assemble: createTaskAssembler({ registry: createDefaultRegistry(), openSource: async () => ({ source }), ...storedAssemblerDeps(store, state.storage.sql) }),
    });
    const begun = await ledger.begin(0).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, reason: error instanceof Error ? error.message : String(error) }),
    );
    return { begun, stored: store.turn(0) ?? null };
  });
}

describe('task assembler', () => {
  it('merges turn 0 into the task item and appends later all-turn context as local:context:n', async () => {
    const { source, resolves } = await memorySource({ 'AGENTS.md': 'Use tabs.\n' });
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const store = taskStoreOf(state.storage.sql);
      store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.' }), 0, 1);
      let notes = 0;
      const registry = createRegistry([
        createRulesProvider(),
        fakeProvider({ name: 'notes', category: 'memory', turns: 'all', entries: [entry('note', 'Remember the flaky test.')], onRun: () => notes++ }),
      ]);
      const ledger = new TurnLedger({
        store,
        assemble: createTaskAssembler({ registry, openSource: async () => ({ source }), ...storedAssemblerDeps(store, state.storage.sql) }),
      });

      const first = await ledger.begin(0);
      if (first.status !== 'ok') throw new Error(first.status);
      expect(first.record.item?.id).toBe(TASK_ITEM_ID);
      expect(first.record.item?.content).toContain('Fix it.');
      expect(first.record.item?.content).toContain('Use tabs.');
      expect(first.record.item?.content).toContain('Remember the flaky test.');
      expect(first.record.system).toHaveLength(3);

      const second = await ledger.begin(1);
      if (second.status !== 'ok') throw new Error(second.status);
      expect(second.record.providers.map((p) => [p.name, p.outcome])).toEqual([
        ['rules', 'turn-gated'],
        ['notes', 'included'],
      ]);
      expect(second.record.item).toMatchObject({ id: contextItemId(1), type: 'context', role: 'user' });
      expect(second.record.item?.content).toMatch(/^<groundwork-context boundary="[0-9a-f]{16}" provider="notes" category="memory"/);
      expect(second.record.item?.content).not.toContain('Use tabs.');
      expect(second.record.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(store.requestTranscript(1, contextItemId(1)).map((item) => item.id)).toEqual([TASK_ITEM_ID, contextItemId(1)]);
      // The ref was resolved once and pinned; turn 1 read at the same commit.
      expect(resolves).toEqual(['main']);
      expect(store.task()?.commit_sha).toBe(COMMIT);
      expect(second.record.commit).toBe(COMMIT);
      expect(notes).toBe(2);
    });
  });

  it('stores turn 0 only once the cache writes of its reads are done when its host does not take them (they run beside the assembly)', async () => {
    const { source } = await memorySource(REPOSITORY);
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const store = taskStoreOf(state.storage.sql);
      store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.' }), 0, 1);
      // The source's writes behind: held open until the test lets them through.
      let asked = 0;
      let release = (): void => undefined;
      const writes = new Promise<void>((resolve) => (release = resolve));
      const settled = (): Promise<void> => {
        asked++;
        return writes;
      };
      const ledger = new TurnLedger({
        store,
        assemble: createTaskAssembler({ registry: createDefaultRegistry(), openSource: async () => ({ source, settled }), ...storedAssemblerDeps(store, state.storage.sql) }),
      });
      const begun = ledger.begin(0);
      while (asked === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      // Everything was read and rendered; the turn waits for the writes, and nothing is stored yet.
      expect(store.turn(0)).toBeUndefined();
      release();
      const result = await begun;
      expect(result.status).toBe('ok');
      expect(store.turn(0)?.item?.content).toContain('Use tabs.');
      expect(asked).toBe(1);
    });
  });

  it('fails the assembly, naming every provider and why, when no repository provider could read the source', async () => {
    const { source } = await memorySource(REPOSITORY, Object.keys(REPOSITORY));
    const { begun, stored } = await firstTurnOf(source);
    expect(begun).toEqual({
      ok: false,
      reason: `no repository provider could read memory:test at ${COMMIT}: rules failed: could not read AGENTS.md: upstream 502; skills failed: could not read .agents/skills/lint/SKILL.md: upstream 502`,
    });
    expect(stored).toBeNull();
  });

  it('fails the assembly when the repository settings file could not be read, rather than read rules and skills with settings that may not be its own', async () => {
    const { source } = await memorySource({ ...REPOSITORY, '.groundwork.yml': 'providers:\n  skills:\n    roots: ["tools/skills/*"]\n' }, ['.groundwork.yml']);
    const { begun, stored } = await firstTurnOf(source);
    const unknown = '.groundwork.yml could not be read: upstream 502';
    // The settings are checked first: whatever the providers managed, a turn without them is not stored.
    expect(begun).toEqual({ ok: false, reason: `the repository's settings could not be read: ${unknown}` });
    expect(stored).toBeNull();
  });

  it('keeps what could be read and tells the model in a host notice which rules it does not have', async () => {
    const { source } = await memorySource(REPOSITORY, ['AGENTS.md']);
    const { begun } = await firstTurnOf(source);
    if (!begun.ok || begun.result.status !== 'ok') throw new Error(`turn 0 did not assemble: ${JSON.stringify(begun)}`);
    const { record } = begun.result;
    expect(record.providers.filter((p) => p.category === 'rules' || p.category === 'skills').map((p) => [p.name, p.outcome, p.reason])).toEqual([
      ['rules', 'failed', 'could not read AGENTS.md: upstream 502'],
      ['skills', 'included', undefined],
    ]);
    // Caused by this run, so it sits with the task's context, outside the prefix other tasks on the commit share.
    const item = record.item?.type === 'message' ? record.item : undefined;
    const [commitPart, ...rest] = item?.parts ?? [];
    expect(commitPart?.stability).toBe('commit');
    expect(commitPart?.text).toContain('- lint: Run the linter.');
    const notices = rest.filter((part) => part.stability === 'task' && part.text.includes('<groundwork-notice'));
    expect(notices.map((part) => withoutBoundaries(part.text))).toEqual([
      expect.stringContaining(
        '<groundwork-notice provider="rules">\nRepository rules (AGENTS.md and similar files) could not be read (the provider failed). Do not say you followed the repository’s rules; say they were unavailable.\n</groundwork-notice>',
      ),
    ]);
    expect(rest.at(-1)?.text).toMatch(/^<groundwork-task /);
  });
});
