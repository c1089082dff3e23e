/**
 * The rules report of a task's check run reads what turn 0 read: the snapshot it was assembled
 * from while the Task object holds it, else a snapshot with turn 0's read plan (which a source
 * serves from the read-ahead it cached under that plan). Counted on the source: which snapshots
 * the report opened, with which plan, and whether it loaded the whole tree again.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createTaskAssembler } from '../../durable-objects/task-assembler.ts';
import { turnZeroPlan } from '../../durable-objects/task-plan.ts';
import { taskRulesMatrix } from '../../durable-objects/task-rules.ts';
import { TurnLedger } from '../../durable-objects/turn-ledger.ts';
import { BUILTIN_AGENTS } from '../../src/context/agents.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import type { ReadPlan } from '../../src/sources/read-plan.ts';
import type { RepositorySource, Snapshot } from '../../src/sources/snapshot.ts';
import { createTreeSnapshot, type TreeLoader } from '../../src/sources/tree-snapshot.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { createMemoryTree } from '../support/memory-tree.ts';
import { storedAssemblerDeps, taskStoreOf } from '../support/task-object.ts';

const COMMIT = 'e'.repeat(40);
const FILES = {
  'AGENTS.md': 'Run the tests.\n',
  'packages/api/AGENTS.md': 'Validate with zod.\n',
  'packages/api/src/handler.ts': 'export {};\n',
  '.cursor/rules/api.mdc': '---\nglobs: packages/api/**\n---\nUse the api client.\n',
};

/** A source whose snapshots say which plan they were opened with and how often the whole tree was loaded. */
async function countingSource(files: Record<string, string> = FILES) {
  const tree = await createMemoryTree(files);
  const opened: Array<ReadPlan | undefined> = [];
  const counts = { trees: 0, reads: 0, lists: 0 };
  const loader: TreeLoader = {
    loadTree: (signal) => {
      counts.trees++;
      return tree.loader.loadTree(signal);
    },
    loadBlob: (oid, signal) => tree.loader.loadBlob(oid, signal),
    loadCommit: (signal) => tree.loader.loadCommit(signal),
  };
  const source: RepositorySource = {
    repository: 'memory:report',
    resolve: async () => ({ status: 'ok', commit: COMMIT }),
    snapshot: (commit, options) => {
      opened.push(options?.plan);
      return countingReads(createTreeSnapshot({ repository: 'memory:report', commit, uri: (path) => path, loader, ...options }), counts);
    },
  };
  return { source, opened, counts };
}

/** The snapshot, counting every file read and directory listing asked of it (the held view's too). */
function countingReads(snapshot: Snapshot, counts: { reads: number; lists: number }): Snapshot {
  const held = snapshot.held;
  return {
    ...snapshot,
    read: (path, options) => {
      counts.reads++;
      return snapshot.read(path, options);
    },
    list: (dir, options) => {
      counts.lists++;
      return snapshot.list(dir, options);
    },
    ...(snapshot.listed ? { listed: (dir: string, options?: { signal?: AbortSignal }) => (counts.lists++, snapshot.listed?.(dir, options) ?? Promise.resolve(undefined)) } : {}),
    ...(held ? { held: () => countingReads(held(), counts) } : {}),
  };
}

async function reportAfterTurnZero(keep: boolean, options: { client?: string; agent?: string; files?: Record<string, string> } = {}) {
  const { client, agent } = options;
  const { source, opened, counts } = await countingSource(options.files);
  const registry = createDefaultRegistry();
  return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix the handler.', paths: ['packages/api/src/handler.ts'], ...(client ? { client } : {}), ...(agent ? { agent } : {}) }), 0, 1);
    let pinned: Snapshot | undefined;
    const ledger = new TurnLedger({
      store,
      assemble: createTaskAssembler({ registry, openSource: async () => ({ source }), ...storedAssemblerDeps(store, state.storage.sql), assembledFrom: (snapshot) => (pinned = snapshot) }),
    });
    await ledger.begin(0);
    const task = store.task();
    if (!task) throw new Error('no task');
    const assembled = opened.length;
    const [treesBefore, readsBefore, listsBefore] = [counts.trees, counts.reads, counts.lists];
    const report = await taskRulesMatrix(task, { defaultClients: ['codex', 'cursor'] }, {
      store,
      openSource: async () => ({ source }),
      turnZeroPlan: (row, open) => turnZeroPlan({ registry }, row, BUILTIN_AGENTS, open, store.turn(0)?.focus),
      ...(keep && pinned ? { pinned } : {}),
    });
    return { report, assembledPlan: opened[0], reportPlans: opened.slice(assembled), trees: counts.trees - treesBefore, reads: counts.reads - readsBefore, lists: counts.lists - listsBefore };
  });
}

describe("a check run's rules report after turn 0", () => {
  it("reads the snapshot turn 0 was assembled from, opening none of its own", async () => {
    const { report, reportPlans, trees } = await reportAfterTurnZero(true);
    expect(report.status).toBe('ok');
    if (report.status !== 'ok') return;
    expect(report.matrix.files.map((file) => file.path)).toEqual(expect.arrayContaining(['AGENTS.md', 'packages/api/AGENTS.md', '.cursor/rules/api.mdc']));
    expect(reportPlans).toEqual([]);
    expect(trees).toBe(0);
  });

  it("opens a snapshot with turn 0's read plan when the object no longer holds that one", async () => {
    const { report, assembledPlan, reportPlans } = await reportAfterTurnZero(false);
    expect(report.status).toBe('ok');
    expect(assembledPlan?.dirs).toContain('packages/api');
    expect(reportPlans).toEqual([assembledPlan]);
  });

  it('takes the rules turn 0 gathered at that snapshot: only the lints read and list', async () => {
    const kept = await reportAfterTurnZero(true);
    const again = await reportAfterTurnZero(false);
    // The same matrix either way, byte for byte.
    expect(JSON.stringify(kept.report)).toBe(JSON.stringify(again.report));
    // Gathering again lists every directory of the chains and reads every rule file (16 and 6);
    // the lints read the three files found, and list the one directory the .mdc's glob names.
    expect([again.lists, again.reads]).toEqual([16, 6]);
    expect([kept.lists, kept.reads]).toEqual([1, 3]);
  });

  it("resolves the kept rules again for a report whose clients differ from the task's client", async () => {
    const kept = await reportAfterTurnZero(true, { client: 'codex' });
    const again = await reportAfterTurnZero(false, { client: 'codex' });
    expect(JSON.stringify(kept.report)).toBe(JSON.stringify(again.report));
    expect([kept.lists, kept.reads]).toEqual([1, 3]);
  });

  it("takes them for a reviewer's turn 0 too: the agent matters only where a file excludes one", async () => {
    const kept = await reportAfterTurnZero(true, { agent: 'reviewer' });
    expect([kept.lists, kept.reads]).toEqual([1, 3]);
    expect(JSON.stringify(kept.report)).toBe(JSON.stringify((await reportAfterTurnZero(false)).report));
  });

  it('gathers afresh when a file excludes the agent kind turn 0 was gathered for', async () => {
    const files = { ...FILES, '.github/instructions/api.instructions.md': '---\napplyTo: "packages/api/**"\nexcludeAgent: code-review\n---\nUse the api client.\n' };
    const kept = await reportAfterTurnZero(true, { agent: 'reviewer', files });
    const again = await reportAfterTurnZero(false, { files });
    expect(kept.lists).toBeGreaterThan(1);
    expect(JSON.stringify(kept.report)).toBe(JSON.stringify(again.report));
    if (kept.report.status !== 'ok') throw new Error(kept.report.status);
    // The report is for no agent in particular: the file applies (turn 0's reviewer had it excluded).
    expect(kept.report.matrix.files.find((file) => file.path === '.github/instructions/api.instructions.md')?.verdict).toBe('applied');
  });
});
