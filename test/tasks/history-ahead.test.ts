/**
 * A first turn asks the tenant's index for earlier tasks as it starts, beside the source's first
 * reads, rather than when the history provider runs after them (issue 56): the assembler asks for
 * the most a setting may show, only on turn 0 and only for an agent that selects the provider.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createTaskAssembler } from '../../durable-objects/task-assembler.ts';
import { TurnLedger } from '../../durable-objects/turn-ledger.ts';
import { createRegistry } from '../../src/context/registry.ts';
import type { TaskHistoryReader } from '../../src/context/task-history.ts';
import { createHistoryProvider } from '../../src/providers/history/provider.ts';
import { MAX_HISTORY_TASKS } from '../../src/providers/history/settings.ts';
import { createTreeSnapshot } from '../../src/sources/tree-snapshot.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { createMemoryTree } from '../support/memory-tree.ts';
import { storedAssemblerDeps, taskStoreOf } from '../support/task-object.ts';

const COMMIT = '3'.repeat(40);

async function turnsOf(agent: string, turns: number): Promise<string[]> {
  const tree = await createMemoryTree({ 'README.md': 'hello\n' });
  const source: RepositorySource = {
    repository: 'memory:history',
    resolve: async () => ({ status: 'ok', commit: COMMIT }),
    snapshot: (commit) => createTreeSnapshot({ repository: 'memory:history', commit, uri: (path) => path, loader: tree.loader }),
  };
  const events: string[] = [];
  const reader: TaskHistoryReader = { earlier: async ({ limit }) => (events.push(`provider asked for ${limit}`), []) };
  const stub = env.TASKS.get(env.TASKS.newUniqueId());
  return runInDurableObject(stub, async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request: 'Tidy up.', agent, baseCommit: COMMIT }), 0, 1);
    const assemble = createTaskAssembler({
      registry: createRegistry([createHistoryProvider()]),
      openSource: async () => (events.push('source opened'), { source }),
      earlierTasks: (_task, ahead) => (events.push(`index asked ahead for ${ahead ?? 'none'}`), reader),
      ...storedAssemblerDeps(store, state.storage.sql),
    });
    const ledger = new TurnLedger({ store, assemble });
    for (let turn = 0; turn < turns; turn++) {
      const result = await ledger.begin(turn);
      if (result.status !== 'ok') throw new Error(result.status);
    }
    return events;
  });
}

describe('earlier tasks read ahead', () => {
  it('asks for them before the source is opened on turn 0, the most a setting may show, and not again on a later turn', async () => {
    expect(await turnsOf('entry', 2)).toEqual([
      `index asked ahead for ${MAX_HISTORY_TASKS}`,
      'source opened',
      'provider asked for 5',
      'index asked ahead for none',
      'source opened',
    ]);
  });

  it('asks nothing ahead for an agent that does not select the history provider', async () => {
    expect(await turnsOf('explorer', 1)).toEqual(['index asked ahead for none', 'source opened']);
  });
});
