/**
 * @module cli/context-command
 * `groundwork context`: pins a local repository at a commit, assembles the first turn through
 * the same pipeline the Worker uses, and prints it.
 * Exit codes: 0 assembled, 1 the repository could not be read, 2 bad usage. A repository that
 * turns out unreadable while the context is read (an object a commit needs is missing, a pack is
 * truncated) is exit 1 with one line saying so, not a context with rules that failed.
 */
// First: it configures zod before any schema below is built.
import './zod-config.ts';
import { cliAgent } from './cli-agent.ts';
import { clientOf } from '../context/client.ts';
import { formatRequest } from '../context/formats/format.ts';
import { promptFromTurn } from '../context/formats/prompt.ts';
import type { Registry } from '../context/registry.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import type { RepositorySource, Snapshot } from '../sources/snapshot.ts';
import type { AssembledTurn } from '../context/turn-schema.ts';
import { parseCliArgs, USAGE } from './args.ts';
import { formatTurn, warningLines } from './format.ts';
import { formatSummary } from './summary.ts';
import { readFactsOption } from './facts-option.ts';
import { assembleLocalTurn } from './local-turn.ts';
import { cliTaskSettings } from './task-settings.ts';
import { jsonOutput } from './json-output.ts';
import { terminalText } from './terminal-text.ts';
import { openLocalRepository, type OpenedLocal } from './open-local.ts';
import { uncommittedChanges } from './worktree-changes.ts';
import { createWorktreeSnapshot } from './worktree-snapshot.ts';
import { usageError } from './usage.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface CliDeps {
  openSource?: (dir: string) => RepositorySource;
  registry?: Registry;
}

export const EXIT = { assembled: 0, unreadable: 1, usage: 2 } as const;

export async function runContextCommand(argv: readonly string[], rawIo: CliIo, deps: CliDeps = {}): Promise<number> {
  // stderr is always read by people; stdout too, unless it carries --json.
  const stderr = (text: string): void => rawIo.stderr(terminalText(text));
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) {
    stderr(usageError('groundwork', parsed.error, 'groundwork context --help'));
    return EXIT.usage;
  }
  const options = parsed.options;
  const io: CliIo = { stdout: options.json || options.format ? rawIo.stdout : (text) => rawIo.stdout(terminalText(text)), stderr };
  if (options.help) {
    io.stdout(`${USAGE}\n`);
    return EXIT.assembled;
  }
  const agent = cliAgent(options.agent);
  if (!agent.ok) {
    io.stderr(`groundwork: --agent: ${agent.error}\n`);
    return EXIT.usage;
  }

  const registry = deps.registry ?? createDefaultRegistry();
  const settings = cliTaskSettings(options, registry);
  if (!settings.ok) {
    io.stderr(`groundwork: ${settings.error}\n`);
    return EXIT.usage;
  }

  const facts = readFactsOption(options.facts);
  if (!facts.ok) {
    io.stderr(`groundwork: ${facts.error}\n`);
    return EXIT.usage;
  }

  const opened = await openLocalRepository({
    repo: options.repo,
    ref: options.ref,
    cwd: options.cwd,
    readTree: !options.untrusted,
    ...(deps.openSource ? { openSource: deps.openSource } : {}),
  });
  if (!opened.ok) {
    io.stderr(`groundwork: ${opened.error}\n`);
    return opened.exit;
  }
  const snapshot = opened.source.snapshot(opened.commit);
  const turn = await assembleLocalTurn({ registry, agent: agent.agent, opened, snapshot, ref: options.ref, request: options.task, paths: options.path, skills: options.skill, trusted: !options.untrusted, settings: settings.layer, facts: facts.facts, client: clientOf(options.client) });

  const worktree = opened.bare || options.untrusted ? [] : await worktreeWarnings(opened, snapshot, options.ref, options['skills-root'], options.path);
  const unreadable = opened.source.unreadable?.();
  if (unreadable !== undefined) {
    io.stderr(`groundwork: cannot read ${opened.root} at ${options.ref} (${opened.commit.slice(0, 12)}): ${unreadable}\n`);
    return EXIT.unreadable;
  }
  const notices = [...opened.warnings, ...worktree, ...unknownSkills(turn, options.skill), ...failedProviders(turn)];
  for (const line of [...notices.map((w) => `warning: ${w}`), ...warningLines(turn)]) io.stderr(`${line}\n`);
  if (options.format) io.stdout(jsonOutput(formatRequest(options.format, await promptFromTurn(turn)).body));
  else if (options.summary) io.stdout(`${formatSummary(turn)}\n`);
  else io.stdout(options.json ? jsonOutput(turn) : `${formatTurn(turn)}\n`);
  return EXIT.assembled;
}

/**
 * Only the checked-out commit has a working tree to differ from. A comparison that could not be
 * made is a warning of its own: when the repository is what failed, `unreadable()` says so.
 */
export async function worktreeWarnings(opened: Extract<OpenedLocal, { ok: true }>, snapshot: Snapshot, ref: string, skillRoots: readonly string[], focusPaths: readonly string[] = []): Promise<string[]> {
  const head = ref === 'HEAD' ? { status: 'ok' as const, commit: opened.commit } : await opened.source.resolve('HEAD');
  if (head.status !== 'ok' || head.commit !== opened.commit) return [];
  try {
    return await uncommittedChanges({
      committed: snapshot,
      worktree: createWorktreeSnapshot(opened.root, opened.commit),
      cwd: opened.cwd,
      focusPaths,
      skillRoots,
      shown: ref,
    });
  } catch (error) {
    return [`could not compare the commit with the working tree: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/**
 * A `--skill` that selected nothing. The skills provider says so in its index entry's warnings;
 * when there is no index at all (no skills, or an untrusted task) this is the only place it is said.
 */
export function unknownSkills(turn: AssembledTurn, skills: readonly string[]): string[] {
  const said = turn.entries.flatMap((entry) => entry.warnings).join('\n');
  return skills
    .filter((name) => !turn.entries.some((entry) => entry.title === `Selected skill: ${name}`) && !said.includes(`"${name}"`))
    .map((name) => `--skill ${name} selected nothing (${turn.providers.find((p) => p.name === 'skills')?.reason ?? 'it is not in the skills index'})`);
}

/** A provider that failed (an unreadable object, say) is in the table; it is said on stderr too. */
export function failedProviders(turn: AssembledTurn): string[] {
  return turn.providers.filter((p) => p.outcome === 'failed').map((p) => `${p.name} failed: ${p.reason ?? 'no reason given'}`);
}
