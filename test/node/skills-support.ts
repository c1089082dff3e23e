/**
 * Runs the skills provider through the real runner against a real git repository, read through
 * the local git source at its committed HEAD, counting what the run read.
 */
import { grantCapabilities } from '../../src/context/capabilities.ts';
import type { ContextEntry } from '../../src/context/outcome.ts';
import type { TaskView } from '../../src/context/provider.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { runProviders, type RunResult } from '../../src/context/runner.ts';
import { createSkillsProvider, type SkillsProviderOptions } from '../../src/providers/skills/provider.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import type { KeyValueStore } from '../../src/sources/key-value-store.ts';
import type { Snapshot } from '../../src/sources/snapshot.ts';
import { countingSource, type SourceCalls } from '../support/counting-source.ts';
import type { GitFixture } from '../support/git-fixtures.ts';

export interface SkillsRun extends RunResult {
  commit: string;
  calls: SourceCalls;
  snapshot: Snapshot;
}

export interface SkillsRunOptions extends SkillsProviderOptions {
  request?: string;
  skills?: string[];
  cwd?: string;
  focusPaths?: string[];
  config?: unknown;
  cache?: KeyValueStore;
}

export async function runSkills(repo: GitFixture, options: SkillsRunOptions = {}): Promise<SkillsRun> {
  const { source, calls } = countingSource(createLocalGitSource(repo.dir));
  const head = await source.resolve('HEAD');
  if (head.status !== 'ok') throw new Error(`HEAD did not resolve: ${JSON.stringify(head)}`);
  const snapshot = source.snapshot(head.commit);
  const result = await runProviders({
    registry: createRegistry([createSkillsProvider(options)]),
    selection: 'all',
    task: skillsTask(repo, head.commit, options),
    turn: 0,
    capabilities: grantCapabilities({ agent: { name: 'entry', capabilities: ['repo:read'] }, trusted: true, available: ['repo:read'] }),
    setups: options.config === undefined ? {} : { skills: { config: options.config } },
    snapshot,
    ...(options.cache ? { cache: options.cache } : {}),
    totalBudget: 100_000,
  });
  return { ...result, commit: head.commit, calls, snapshot };
}

export function skillsTask(repo: GitFixture, commit: string, options: { request?: string; skills?: string[]; cwd?: string; focusPaths?: string[] } = {}): TaskView {
  return {
    request: options.request ?? 'Tidy up the changelog.',
    origin: 'cli',
    repository: `file://${repo.dir}`,
    commit,
    cwd: options.cwd ?? '',
    focusPaths: options.focusPaths ?? [],
    trusted: true,
    skills: options.skills ?? [],
    agent: 'entry',
  };
}

export function skillFile(name: string, description: string, body = `Instructions for ${name}.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

export function indexEntry(run: RunResult): ContextEntry | undefined {
  return run.entries.find((entry) => entry.title === 'Skills index');
}

/** The index lines after the header. */
export function indexLines(run: RunResult): string[] {
  return (indexEntry(run)?.body ?? '').split('\n').slice(1);
}
