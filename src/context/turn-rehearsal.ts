/**
 * @module context/turn-rehearsal
 * Turn 0's code, and its check run's rules matrix, run once per isolate over a small repository
 * held in memory, the results thrown away, while a cold isolate's first GitHub turn waits on its
 * first requests (issue 56). The first run of that code in a fresh isolate is slow: functions
 * compiled on their first call, zod's checks built on their first parse, the YAML parser of
 * skills and settings. A cold first turn was ready 60 to 67 ms after GitHub's last answer where a
 * warm isolate's took 26 to 40 (bench/first-turn, medians of 12 rounds; V8's profiles put the
 * difference in those first runs). Run here, that cost falls in the installation token's round
 * trip, when the thread has nothing else to do. The repository has a file of each format the
 * rules provider reads, a skill and settings, so each of their parsers has run once.
 *
 * Nothing here reads or writes anything outside memory: no source, no cache, no GitHub, no
 * knowledge, no earlier tasks. A rehearsal that fails is logged and changes nothing.
 */
import type { AgentConfig } from './agents.ts';
import type { ClientName } from './client.ts';
import type { TaskView } from './provider.ts';
import type { Registry } from './registry.ts';
import type { RulesMatrix } from './rules-matrix.ts';
import { assembleFirstTurn } from './turn.ts';
import type { AssembledTurn } from './turn-schema.ts';
import { RulesConfigSchema } from '../providers/rules/config.ts';
import { rulesMatrix } from '../providers/rules/rules-matrix.ts';
import { createTreeSnapshot, type FlatTreeEntry, type TreeLoader } from '../sources/tree-snapshot.ts';
import type { RepositorySource } from '../sources/snapshot.ts';

const COMMIT = '0'.repeat(40);
const REPOSITORY = 'rehearsal:memory';
const CHANGED = 'packages/app/src/main.ts';

/** A file of each format turn 0 reads: rules in every convention, a skill, the repository's settings. */
const FILES: Readonly<Record<string, string>> = {
  '.groundwork.yml': 'providers:\n  rules:\n    clients: [claude-code, codex]\n',
  'AGENTS.md': '# Rules\n\nRun `npm test` before you push.\n',
  'CLAUDE.md': '@AGENTS.md\n',
  'packages/app/AGENTS.md': '# App\n\nKeep the public API in src/main.ts.\n',
  [CHANGED]: 'export const app = 1;\n',
  '.cursor/rules/style.mdc': '---\ndescription: Style\nglobs: "**/*.ts"\nalwaysApply: false\n---\nPrefer `const`.\n',
  '.github/copilot-instructions.md': 'Write tests.\n',
  '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nNo `any`.\n',
  '.agents/skills/release/SKILL.md': '---\nname: release\ndescription: "Cut a release: bump, tag, publish."\n---\n# Release\n\nTag the commit.\n',
};

/** What the rehearsal made: turn 0, and the rules matrix a check run reports with it. */
export interface Rehearsal {
  turn: AssembledTurn;
  matrix: RulesMatrix;
}

/** What a rehearsal runs with: the deployment's providers, the task's agent, the clients its check runs report on. */
export interface RehearsalInput {
  registry: Registry;
  agent: AgentConfig;
  clients: readonly ClientName[];
}

/**
 * One rehearsal, begun by its first caller and shared by every later one: true once it has run,
 * false when it failed; never rejects. What it made is not kept (the isolate has no use for it).
 */
export function onceRehearsal(run: typeof rehearse = rehearse): (input: RehearsalInput) => Promise<boolean> {
  let rehearsed: Promise<boolean> | undefined;
  return (input) =>
    (rehearsed ??= run(input).then(
      () => true,
      (error: unknown) => {
        console.warn(`turn 0 rehearsal: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      },
    ));
}

/** The isolate's rehearsal. */
export const rehearseFirstTurn = onceRehearsal();

/** Turn 0 of `agent` over the in-memory repository, for a trusted pull request that changed one file, then its rules matrix. */
export async function rehearse({ registry, agent, clients }: RehearsalInput): Promise<Rehearsal> {
  const snapshot = createTreeSnapshot({ repository: REPOSITORY, commit: COMMIT, uri: (path) => `${REPOSITORY}/${path}`, loader: memoryLoader(FILES) });
  const source: RepositorySource = { repository: REPOSITORY, resolve: () => Promise.resolve({ status: 'ok', commit: COMMIT }), snapshot: () => snapshot };
  const task: TaskView = {
    request: 'Review pull request #1: update the app',
    origin: 'github',
    repository: REPOSITORY,
    commit: COMMIT,
    headCommit: COMMIT,
    cwd: '',
    focusPaths: [CHANGED],
    trusted: true,
    skills: [],
    agent: agent.name,
    pullRequest: { number: 1, title: 'Update the app', author: 'someone', headSha: COMMIT, fromFork: false, baseRef: 'main', headRef: 'update', changedFiles: 1 },
  };
  const turn = await assembleFirstTurn({
    registry,
    agent,
    available: ['repo:read'],
    snapshot,
    source,
    task,
    turn: 0,
    focusFiles: [CHANGED],
    pullRequestFiles: { status: 'ok', files: [{ path: CHANGED, status: 'modified', additions: 1, deletions: 1 }], complete: true },
  });
  const matrix = await rulesMatrix(snapshot, { cwd: '', paths: [CHANGED], files: [CHANGED], clients, config: RulesConfigSchema.parse({}), signal: new AbortController().signal });
  return { turn, matrix };
}

function memoryLoader(files: Readonly<Record<string, string>>): TreeLoader {
  const blobs = new Map<string, Uint8Array>();
  const entries: FlatTreeEntry[] = [];
  const dirs = new Set<string>();
  for (const [path, text] of Object.entries(files)) {
    const bytes = new TextEncoder().encode(text);
    // Ids only key the snapshot's reads here; nothing checks them against the bytes.
    const oid = (blobs.size + 1).toString(16).padStart(40, '0');
    blobs.set(oid, bytes);
    entries.push({ path, kind: 'file', oid, size: bytes.byteLength });
    for (let end = path.indexOf('/'); end !== -1; end = path.indexOf('/', end + 1)) dirs.add(path.slice(0, end));
  }
  for (const dir of dirs) entries.push({ path: dir, kind: 'dir', oid: `f${(entries.length + 1).toString(16).padStart(39, '0')}` });
  return {
    loadTree: () => Promise.resolve(entries),
    loadBlob: (oid) => {
      const bytes = blobs.get(oid);
      return bytes ? Promise.resolve(bytes) : Promise.reject(new Error(`no blob ${oid}`));
    },
    loadCommit: () => Promise.resolve({ commit: COMMIT, tree: 'e'.repeat(40), parents: [], committedAt: '2026-01-01T00:00:00Z', authoredAt: '2026-01-01T00:00:00Z' }),
  };
}
