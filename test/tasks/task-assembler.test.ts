import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createTaskAssembler } from '../../durable-objects/task-assembler.ts';
import { TaskStore } from '../../durable-objects/task-store.ts';
import { TurnLedger } from '../../durable-objects/turn-ledger.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { createRulesProvider } from '../../src/providers/rules/provider.ts';
import { createTreeSnapshot } from '../../src/sources/tree-snapshot.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { contextItemId, TASK_ITEM_ID } from '../../src/tasks/transcript.ts';
import { createMemoryTree } from '../support/memory-tree.ts';
import { entry, fakeProvider } from '../support/providers.ts';

const COMMIT = 'b'.repeat(40);

async function memorySource(files: Record<string, string>): Promise<{ source: RepositorySource; resolves: string[] }> {
  const tree = await createMemoryTree(files);
  const resolves: string[] = [];
  return {
    resolves,
    source: {
      repository: 'memory:test',
      async resolve(ref) {
        resolves.push(ref);
        return { status: 'ok', commit: COMMIT };
      },
      snapshot: (commit) => createTreeSnapshot({ repository: 'memory:test', commit, uri: (path) => `memory:${path}@${commit}`, loader: tree.loader }),
    },
  };
}

describe('task assembler', () => {
  it('merges turn 0 into the task item and appends later all-turn context as local:context:n', async () => {
    const { source, resolves } = await memorySource({ 'AGENTS.md': 'Use tabs.\n' });
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const store = new TaskStore(state.storage.sql);
      store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.' }), 0, 1);
      let notes = 0;
      const registry = createRegistry([
        createRulesProvider(),
        fakeProvider({ name: 'notes', category: 'memory', turns: 'all', entries: [entry('note', 'Remember the flaky test.')], onRun: () => notes++ }),
      ]);
      const ledger = new TurnLedger({
        store,
        assemble: createTaskAssembler({ registry, openSource: async () => ({ source }), pinCommit: (c) => store.pinCommit(c), now: () => Date.now() }),
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
});
