/**
 * @module providers/rules/rule-set
 * The rule set of a task at one commit, for one client: every rule file on the chains of its
 * working directory and focus paths and of every format (shadowed files and a client's own names
 * included), what each client loads by itself, and what Groundwork therefore gives that client
 * (the complement, each piece with why). One computation over a snapshot, with no clock, no
 * budget and nothing but the snapshot read: turn 0 of the rules provider builds its entries from
 * it, and whoever needs to know which rules apply (the rules matrix, the pull request check,
 * freshness of the rule set at two commits) runs it and compares the answers.
 *
 * @example
 * const set = await ruleSet(snapshot, { task: { cwd: 'packages/api', focusPaths: [], agent: 'entry', client: { name: 'codex' } }, config, signal });
 * set.files.map((file) => [file.path, file.verdict]); // every file found, and what became of it for Codex
 * set.given.map((piece) => piece.path);               // what Groundwork gives Codex
 */
import { NO_CLIENT } from '../../context/client.ts';
import type { TaskView } from '../../context/provider.ts';
import type { RuleVerdict, RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { Stability } from '../../context/entry.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { CLIENT_DIRECTORY_NAMES } from '../../clients/index.ts';
import { resolveRules, type ResolvedRules } from './build-rules.ts';
import { chainPieces } from './chain-pieces.ts';
import { focusNotes, readChainFiles } from './chain-reads.ts';
import type { RulesConfig } from './config.ts';
import { readFocusChains, type FocusChains } from './focus-chains.ts';
import { gatherFormatRules } from './format-rules.ts';
import type { AgentKind } from './formats/context.ts';
import { withoutChainCopies } from './given-once.ts';
import { withImporters } from './import-edges.ts';
import { otherFileVerdicts } from './other-files.ts';
import type { RulePiece } from './pieces.ts';
import type { RankedPiece } from './rule-entries.ts';
import { keptGathering, keptResolution } from './rules-memo.ts';

export type RuleSetTask = Pick<TaskView, 'cwd' | 'focusPaths' | 'agent' | 'client'>;

export interface RuleSetInput {
  task: RuleSetTask;
  /** Which focus paths are known to name files (a pull request's changed files). */
  focusFiles?: readonly string[];
  config: RulesConfig;
  signal: AbortSignal;
}

/** What turn 0 gathers before imports, clients and the budget. */
export interface Gathered {
  chains: FocusChains;
  ranked: RankedPiece[];
  pieces: RulePiece[];
  verdicts: RuleVerdictInput[];
  notes: string[];
  /** The formats found any piece at all. */
  formatPieces: number;
  /** The agent kind it depends on, when it does (formats/context): another kind gathers afresh. */
  agentKind?: AgentKind;
}

/**
 * The chains' files (the instruction file of each directory, and the other names beside it) and
 * every format's, in parallel; what the snapshot gathered for the same input before, if it did.
 */
export function gatherRules(snapshot: Snapshot, input: RuleSetInput): Promise<Gathered> {
  return keptGathering(snapshot, input, () => gatherAfresh(snapshot, input));
}

async function gatherAfresh(snapshot: Snapshot, input: RuleSetInput): Promise<Gathered> {
  const { task, config, signal } = input;
  const focusFiles = input.focusFiles ?? [];
  const readChains = async () => {
    const chains = await readFocusChains(snapshot, { cwd: task.cwd, focusPaths: task.focusPaths, focusFiles, filenames: config.filenames, also: CLIENT_DIRECTORY_NAMES, maxDirectories: config.maxDirectories }, signal);
    const [read, others] = await Promise.all([readChainFiles(snapshot, chains.files, config.maxFileBytes, signal), otherFileVerdicts(snapshot, chains.others, config.filenames, config.maxFileBytes, signal)]);
    return { chains, read, others };
  };
  // Both read from the same planned part of the tree, so neither waits for the other.
  const [{ chains, read, others }, formats] = await Promise.all([readChains(), gatherFormatRules({ snapshot, task, focusFiles, config, signal })]);
  const chain = chainPieces(read.texts, { order: [task.cwd === '' ? '.' : task.cwd, ...task.focusPaths], maxFileBytes: config.maxFileBytes, shareable: true });
  const other = withoutChainCopies(chain.ranked, formats.pieces, formats.verdicts);
  const texts = [...read.texts.map(({ read: file }) => ({ path: file.path, text: file.text })), ...others.texts, ...formats.pieces.flatMap((piece) => (piece.read ? [{ path: piece.read.path, text: piece.body }] : []))];
  return {
    chains,
    ranked: other.chain,
    pieces: other.pieces,
    verdicts: withImporters([...chain.verdicts, ...read.verdicts, ...others.verdicts, ...other.verdicts], texts),
    notes: [...focusNotes(chains, config.maxDirectories), ...read.notes, ...formats.notes],
    formatPieces: formats.pieces.length,
    ...(formats.agentKind ? { agentKind: formats.agentKind } : {}),
  };
}

/** One piece Groundwork gives the client, as the rule set says it (no budget applied). */
export interface GivenPiece {
  title: string;
  path?: string;
  blob?: string;
  stability: Stability;
  why?: string;
}

export interface RuleSet {
  /** Every file found and every reference not followed, each with its verdict for the client and its row of client cells. */
  files: RuleVerdict[];
  /** What Groundwork gives the client, in render order. */
  given: GivenPiece[];
  notes: string[];
}

/** The rule set of `task` at the snapshot's commit, for `task.client` (`none` when absent). */
export async function ruleSet(snapshot: Snapshot, input: RuleSetInput): Promise<RuleSet> {
  const gathered = await gatherRules(snapshot, input);
  const resolved = await resolve(snapshot, input, gathered, true);
  return {
    files: resolved.verdicts.map(({ entry: _entry, found: _found, ...verdict }) => verdict),
    given: resolved.ranked.map(({ piece }) => ({
      title: piece.title,
      ...(piece.read ? { path: piece.read.path, blob: piece.read.blob } : {}),
      stability: piece.stability,
      ...(piece.why === undefined ? {} : { why: piece.why }),
    })),
    notes: gathered.notes,
  };
}

/**
 * Imports, clients and the complement over what was gathered; what the gathering was resolved to
 * before for the same client, if it was (rules-memo). `gathered` must be `gatherRules`'s answer
 * for the same snapshot and input, as every caller's is.
 */
export function resolve(snapshot: Snapshot, input: RuleSetInput, gathered: Gathered, listLoaded: boolean): Promise<ResolvedRules> {
  const client = input.task.client ?? NO_CLIENT;
  return keptResolution(gathered, client, listLoaded, () =>
    resolveRules({ snapshot, ranked: gathered.ranked, pieces: gathered.pieces, verdicts: gathered.verdicts, config: input.config, signal: input.signal, client, cwd: input.task.cwd, listLoaded }),
  );
}
