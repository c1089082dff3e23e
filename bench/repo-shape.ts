/**
 * The repository shape the source benchmarks read: an AGENTS.md in every directory from the root
 * down to a working directory five levels deep, and 30 skills under `.agents/skills`. Two ways
 * to read it: directly through a Snapshot (as the providers do), and through the real rules and
 * skills providers via `assembleFirstTurn`.
 */
import { resolveAgent } from '../src/context/agent-catalog.ts';
import { createRegistry } from '../src/context/registry.ts';
import { assembleFirstTurn } from '../src/context/turn.ts';
import type { AssembledTurn } from '../src/context/turn-schema.ts';
import { directoryChain } from '../src/providers/rules/chain.ts';
import { createRulesProvider } from '../src/providers/rules/provider.ts';
import { createSkillsProvider } from '../src/providers/skills/provider.ts';
import type { KeyValueStore } from '../src/sources/key-value-store.ts';
import type { Snapshot } from '../src/sources/snapshot.ts';
import type { GitFixture } from '../test/support/git-fixtures.ts';

export const SKILLS_DIR = '.agents/skills';
export const SKILL_COUNT = 30;

export interface RepoShape {
  /** Working directory five levels below the root. */
  cwd: string;
  /** Every AGENTS.md of the chain, root first. */
  rulePaths: string[];
  /** Every SKILL.md, sorted. */
  skillPaths: string[];
}

export function repoShape(cwd: string): RepoShape {
  const rulePaths = directoryChain(cwd).map((dir) => (dir === '' ? 'AGENTS.md' : `${dir}/AGENTS.md`));
  const skillPaths = Array.from({ length: SKILL_COUNT }, (_, i) => `${SKILLS_DIR}/skill-${String(i + 1).padStart(2, '0')}/SKILL.md`);
  return { cwd, rulePaths, skillPaths };
}

/** Writes the chain and the skills into the working tree; the caller commits. */
export function writeRepoShape(repo: GitFixture, shape: RepoShape): void {
  shape.rulePaths.forEach((path, depth) => repo.write(path, `# Rules at depth ${depth}\n\nRun the tests before committing; keep changes small.\n`));
  shape.skillPaths.forEach((path, i) => {
    const name = path.split('/').at(-2) ?? '';
    repo.write(path, `---\nname: ${name}\ndescription: Skill number ${i + 1}, for benchmarks.\n---\nDo thing ${i + 1} step by step.\n`);
  });
}

/**
 * Reads the way the providers do: list each chain directory and read its AGENTS.md, while listing
 * `.agents/skills` and reading every SKILL.md, each fan-out in parallel. Returns text by path.
 */
export async function readThroughSnapshot(snapshot: Snapshot, shape: RepoShape): Promise<Map<string, string>> {
  const rules = async (): Promise<Array<[string, string]>> => {
    const listings = await Promise.all(directoryChain(shape.cwd).map((dir) => snapshot.list(dir)));
    const files = listings.flatMap((listing) => (listing.status === 'ok' ? listing.entries.filter((entry) => entry.name === 'AGENTS.md') : []));
    return Promise.all(files.map((file) => readText(snapshot, file.path, 1024 * 1024)));
  };
  const skills = async (): Promise<Array<[string, string]>> => {
    const listing = await snapshot.list(SKILLS_DIR);
    const dirs = listing.status === 'ok' ? listing.entries.filter((entry) => entry.kind === 'dir') : [];
    return Promise.all(dirs.map((dir) => readText(snapshot, `${dir.path}/SKILL.md`, 65_536)));
  };
  const [rulesRead, skillsRead] = await Promise.all([rules(), skills()]);
  if (rulesRead.length !== shape.rulePaths.length || skillsRead.length !== shape.skillPaths.length) {
    throw new Error(`read ${rulesRead.length} rules and ${skillsRead.length} skills, expected ${shape.rulePaths.length} and ${shape.skillPaths.length}`);
  }
  return new Map([...rulesRead, ...skillsRead]);
}

async function readText(snapshot: Snapshot, path: string, maxBytes: number): Promise<[string, string]> {
  const read = await snapshot.read(path, { maxBytes });
  if (read.status !== 'ok') throw new Error(`${path}: ${read.status}`);
  return [path, read.text];
}

const lookup = resolveAgent('entry');
if (!lookup.ok) throw new Error(lookup.error);
const agent = lookup.agent;
const registry = createRegistry([createRulesProvider(), createSkillsProvider()]);

/** Runs the real rules and skills providers at `snapshot` and checks that both included everything. */
export async function assembleWithProviders(snapshot: Snapshot, shape: RepoShape, cache?: KeyValueStore): Promise<AssembledTurn> {
  const turn = await assembleFirstTurn({
    registry,
    agent,
    available: ['repo:read'],
    snapshot,
    ...(cache ? { cache } : {}),
    task: { request: 'bench', origin: 'cli', repository: snapshot.repository, commit: snapshot.commit, cwd: shape.cwd, focusPaths: [], trusted: true, skills: [], agent: agent.name },
    turn: 0,
  });
  // A reason other than the settings a .groundwork.yml set means something was left out.
  const failed = turn.providers.filter((outcome) => outcome.outcome !== 'included' || (outcome.reason !== undefined && !outcome.reason.startsWith('settings: ')));
  if (failed.length > 0) throw new Error(`providers did not include everything: ${JSON.stringify(failed)}`);
  const rules = turn.entries.filter((entry) => entry.provider === 'rules').length;
  const index = turn.messages.some((message) => message.content.includes('skill-30'));
  if (rules !== shape.rulePaths.length || !index) throw new Error(`assembled ${rules} rules entries (want ${shape.rulePaths.length}), skills index complete: ${index}`);
  return turn;
}
