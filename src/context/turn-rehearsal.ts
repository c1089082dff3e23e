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
 * Then, once the turn's next GitHub request is out (the pull request's files, in a cold isolate),
 * the same repository is read the way a GitHub task reads it (`rehearseReads`: the plan read ahead
 * through the GitHub source, its answer taken apart, the source cache; sources/github/
 * read-ahead-rehearsal), which otherwise ran for the first time between the files' answer and the
 * read-ahead, and after the read-ahead's answer. Not in the token's round trip: a cold turn's
 * request for the files already waits for the CPU spent there (docs/benchmarks, 07:50 and 07:55).
 *
 * Nothing here reads or writes anything outside memory: no network (the reads' GitHub API is a
 * function answering from memory), no shared cache, no knowledge, no earlier tasks. A rehearsal
 * that fails is logged and changes nothing.
 */
import type { AgentConfig } from './agents.ts';
import type { ClientName } from './client.ts';
import type { Capability, TaskView } from './provider.ts';
import type { Registry } from './registry.ts';
import type { RulesMatrix } from './rules-matrix.ts';
import { assembleFirstTurn } from './turn.ts';
import type { AssembledTurn } from './turn-schema.ts';
import { planReads } from './read-ahead.ts';
import { RulesConfigSchema } from '../providers/rules/config.ts';
import { rulesMatrix } from '../providers/rules/rules-matrix.ts';
import { createTreeSnapshot, type FlatTreeEntry, type TreeLoader } from '../sources/tree-snapshot.ts';
import { memoryGitHub } from '../sources/github/read-ahead-rehearsal.ts';
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

/**
 * What a rehearsal runs with: the deployment's providers, the task's agent, the clients its check
 * runs report on; `readsAfter` resolves when its second step, the reads, may run (the turn's next
 * GitHub request is out), at once when absent.
 */
export interface RehearsalInput {
  registry: Registry;
  agent: AgentConfig;
  clients: readonly ClientName[];
  readsAfter?: () => Promise<void>;
}

/**
 * One rehearsal, begun by its first caller and shared by every later one: `run`, then `after` (by
 * default the reads) with what `run` made once `readsAfter` resolves. True once both ran, false
 * when one failed; never rejects. What they made is not kept (the isolate has no use for it).
 */
export function onceRehearsal(run: typeof rehearse = rehearse, after: (input: RehearsalInput, made: Rehearsal) => Promise<unknown> = (input) => rehearseReads(input)): (input: RehearsalInput) => Promise<boolean> {
  let rehearsed: Promise<boolean> | undefined;
  return (input) =>
    (rehearsed ??= run(input).then(async (made) => {
      await input.readsAfter?.();
      await after(input, made);
    }).then(
      () => true,
      (error: unknown) => {
        console.warn(`turn 0 rehearsal: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      },
    ));
}

/** Turn 0 of `agent` over the in-memory repository, for a trusted pull request that changed one file, then its rules matrix. */
export async function rehearse({ registry, agent, clients }: RehearsalInput): Promise<Rehearsal> {
  const snapshot = createTreeSnapshot({ repository: REPOSITORY, commit: COMMIT, uri: (path) => `${REPOSITORY}/${path}`, loader: memoryLoader(FILES) });
  const source: RepositorySource = { repository: REPOSITORY, resolve: () => Promise.resolve({ status: 'ok', commit: COMMIT }), snapshot: () => snapshot };
  const task = taskView(REPOSITORY, agent);
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

/**
 * The repository read as a GitHub task reads turn 0's: the agent's read plan for the same change,
 * read ahead through the GitHub source (one GraphQL query, answered from memory) and cached, then
 * every planned directory listed and file read from the snapshot. `requests`: what it asked of the
 * repository's API, one query when the plan held every read; `found`: the planned directories and
 * files it holds (a plan names more than any one repository has); `failed`: reads that were
 * neither found nor missing.
 */
export async function rehearseReads({ registry, agent }: Pick<RehearsalInput, 'registry' | 'agent'>): Promise<{ requests: readonly string[]; found: number; failed: number }> {
  const github = await memoryGitHub(FILES, COMMIT);
  const available: Capability[] = ['repo:read'];
  const plan = planReads({ registry, agent, task: taskView(github.source.repository, agent), turn: 0, available, focusFiles: [CHANGED] });
  const snapshot = github.source.snapshot(COMMIT, { plan });
  const answers = [];
  for (const dir of plan.dirs) answers.push((await snapshot.list(dir)).status);
  for (const file of plan.files) answers.push((await snapshot.read(file, { maxBytes: 65_536 })).status);
  return { requests: github.requests, found: answers.filter((status) => status === 'ok').length, failed: answers.filter((status) => status !== 'ok' && status !== 'missing').length };
}

/** A trusted pull request that changed one file, as the rehearsal's turn sees it. */
function taskView(repository: string, agent: AgentConfig): TaskView {
  return {
    request: 'Review pull request #1: update the app',
    origin: 'github',
    repository,
    commit: COMMIT,
    headCommit: COMMIT,
    cwd: '',
    focusPaths: [CHANGED],
    trusted: true,
    skills: [],
    agent: agent.name,
    pullRequest: { number: 1, title: 'Update the app', author: 'someone', headSha: COMMIT, fromFork: false, baseRef: 'main', headRef: 'update', changedFiles: 1 },
  };
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
