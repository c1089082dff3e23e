/**
 * @module providers/rules/later-turn
 * The rules a later turn adds when the agent moved: the instruction files on the chains of the
 * focus paths the host recorded for this turn (`moved.paths`), and the scoped rules those paths
 * newly bring (Copilot `applyTo`, Cursor `globs`, Claude `paths` matching one of them; rules of a
 * nested `.cursor/rules` on their chains), that the model was not given on an earlier turn. Given means: an earlier entry with the same path, or with the same blob (the
 * same text under another name), as the ledger's history has them. Nothing new: no entries, so
 * the turn appends no item for rules. Everything here depends on the task: `task`-stable.
 */
import type { EntryInput } from '../../context/entry.ts';
import type { ProviderRequest, ProviderResult } from '../../context/provider.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { NO_CLIENT } from '../../context/client.ts';
import { CLIENT_DIRECTORY_NAMES } from '../../clients/index.ts';
import { buildRules } from './build-rules.ts';
import { boundNotice, budgetNotice } from './chain-notices.ts';
import { chainPieces } from './chain-pieces.ts';
import { focusNotes, readChainFiles } from './chain-reads.ts';
import type { RulesConfig } from './config.ts';
import { readFocusChains } from './focus-chains.ts';
import { gatherFormatRules } from './format-rules.ts';
import { otherFileVerdicts } from './other-files.ts';
import type { RulePiece } from './pieces.ts';
import { renderRequestedRule } from './requested.ts';

export async function laterTurnRules(request: ProviderRequest<RulesConfig>, snapshot: Snapshot): Promise<ProviderResult> {
  const { moved, budget } = request;
  if (moved.paths.length === 0 && moved.rules.length === 0) return { entries: [], notes: [`no new focus paths or rules asked for on turn ${request.turn}`] };
  // Both asked for at once: each half of the budget.
  const split = moved.paths.length > 0 && moved.rules.length > 0 ? Math.floor(budget / 2) : budget;
  const [fromPaths, asked] = await Promise.all([
    moved.paths.length > 0 ? newPathRules(request, snapshot, split) : undefined,
    moved.rules.length > 0 ? requestedRules(request, snapshot, split) : undefined,
  ]);
  return {
    entries: [...(fromPaths?.entries ?? []), ...(asked?.entries ?? [])],
    notes: [...(fromPaths?.notes ?? []), ...(asked?.notes ?? [])],
    notices: fromPaths?.notices ?? [],
    verdicts: [...(fromPaths?.verdicts ?? []), ...(asked?.verdicts ?? [])],
  };
}

type LaterRules = Required<Pick<ProviderResult, 'entries' | 'notes' | 'notices' | 'verdicts'>> & { entries: EntryInput[] };

/** What the earlier turns gave, by path (with the turn) and by blob (with the path it was given as). */
function givenBefore(request: ProviderRequest<RulesConfig>, snapshot: Snapshot) {
  const given = request.history.filter((entry) => entry.source.revision === snapshot.commit && entry.source.path !== undefined);
  return {
    paths: new Map(given.map((entry) => [entry.source.path, entry.turn])),
    blobs: new Map(given.flatMap((entry) => (entry.source.blob === undefined ? [] : [[entry.source.blob, entry.source.path ?? ''] as const]))),
  };
}

/**
 * The agent-requested rules asked for by name for this turn (`moved.rules`; the Task object
 * checked each against turn 0's index), in full with their imports, each once: one given on an
 * earlier turn is a note.
 */
async function requestedRules(request: ProviderRequest<RulesConfig>, snapshot: Snapshot, budget: number): Promise<Omit<LaterRules, 'notices'>> {
  const { task, moved, config, signal } = request;
  const { paths } = givenBefore(request, snapshot);
  const share = Math.floor(budget / moved.rules.length);
  const rendered = await Promise.all(moved.rules.map((name) => renderRequestedRule({ snapshot, task, config, name, budget: share, signal })));
  const out: Omit<LaterRules, 'notices'> = { entries: [], notes: [], verdicts: [] };
  rendered.forEach((rule, i) => {
    if (rule.status === 'unknown') {
      out.notes.push(rule.reason);
      return;
    }
    const [main] = rule.verdicts;
    const turn = main ? paths.get(main.path) : undefined;
    if (main && turn !== undefined) {
      out.notes.push(`rule ${moved.rules[i] ?? ''} (${main.path}) was given on turn ${turn}`);
      return;
    }
    out.entries.push(...rule.entries.filter((entry) => paths.get(entry.source.path) === undefined));
    out.notes.push(...rule.notes);
    out.verdicts.push(...rule.verdicts);
  });
  return out;
}

/** The chain files and scoped rules the new focus paths bring. */
async function newPathRules(request: ProviderRequest<RulesConfig>, snapshot: Snapshot, budget: number): Promise<LaterRules> {
  const { task, moved, config, signal } = request;
  const { paths, blobs } = givenBefore(request, snapshot);

  const moving = { ...task, focusPaths: moved.paths };
  const [chains, formats] = await Promise.all([
    readFocusChains(snapshot, { cwd: task.cwd, focusPaths: moved.paths, focusFiles: request.focusFiles, filenames: config.filenames, also: CLIENT_DIRECTORY_NAMES, maxDirectories: config.maxDirectories }, signal),
    // Only what applies now matters: a glob no path matches is turn 0's to check.
    gatherFormatRules({ snapshot, task: moving, focusFiles: request.focusFiles, config: { ...config, maxGlobCheckDirectories: 0 }, signal }),
  ]);
  const newPaths = new Set(moved.paths);
  // Only what the new paths bring: the working directory's own chain was turn 0's to give.
  const brought = chains.files.filter((file) => file.appliesTo.some((label) => newPaths.has(label)));
  const notes = focusNotes(chains, config.maxDirectories);
  const unseen = brought.filter((file) => {
    const turn = paths.get(file.path);
    if (turn !== undefined) notes.push(`${file.path} was given on turn ${turn}`);
    return turn === undefined;
  });
  const newDirs = new Set(brought.map((file) => file.dir));
  const [read, others] = await Promise.all([
    readChainFiles(snapshot, unseen, config.maxFileBytes, signal),
    otherFileVerdicts(snapshot, chains.others.filter((file) => newDirs.has(file.dir) && paths.get(file.path) === undefined), config.filenames, config.maxFileBytes, signal),
  ]);
  notes.push(...read.notes);
  const fresh = read.texts.filter(({ read: text }) => {
    const as = blobs.get(text.blob);
    if (as !== undefined) notes.push(`${text.path} has the same content as ${as}, given on an earlier turn`);
    return as === undefined;
  });
  const chain = chainPieces(fresh, { order: moved.paths, maxFileBytes: config.maxFileBytes, shareable: false });
  const scoped = newScopedRules(formats.pieces, formats.verdicts, paths, blobs, notes);
  const made = await buildRules({ snapshot, ranked: chain.ranked, pieces: scoped.pieces, verdicts: [...chain.verdicts, ...read.verdicts, ...others.verdicts, ...scoped.verdicts], config, budget, signal, client: task.client ?? NO_CLIENT, cwd: task.cwd, listLoaded: false });
  notes.push(...made.notes);
  // An import of a new rule may be a file an earlier turn gave already.
  const entries = made.entries.filter((entry) => {
    const turn = paths.get(entry.source.path);
    if (turn !== undefined) notes.push(`${entry.source.path} was given on turn ${turn}`);
    return turn === undefined;
  });
  if (entries.length === 0) notes.push(`the ${moved.paths.length} new focus ${moved.paths.length === 1 ? 'path brings' : 'paths bring'} no rules the model was not given`);
  const notices: NonNullable<ProviderResult['notices']> = [];
  if (chains.cut.length > 0) notices.push({ text: boundNotice(chains.cut, config.maxDirectories), stability: 'task' });
  if (made.dropped.length > 0) notices.push({ text: budgetNotice(made.dropped, budget), stability: 'task' });
  return { entries, notes, notices, verdicts: made.verdicts };
}

/**
 * The formats' rules only the new paths bring (decided task-stable: a glob matched one of them, or
 * the rule sits on one of their chains), each once: not one given on an earlier turn under its
 * path or its blob. The rules index is turn 0's; what applies whatever the task touches was too.
 */
function newScopedRules(
  pieces: readonly RulePiece[],
  verdicts: readonly RuleVerdictInput[],
  given: ReadonlyMap<string | undefined, number>,
  blobs: ReadonlyMap<string, string>,
  notes: string[],
): { pieces: RulePiece[]; verdicts: RuleVerdictInput[] } {
  const kept = pieces.filter((piece) => {
    if (piece.stability !== 'task' || !piece.read) return false;
    const turn = given.get(piece.read.path);
    if (turn !== undefined) notes.push(`${piece.read.path} was given on turn ${turn}`);
    const as = turn === undefined ? blobs.get(piece.read.blob) : undefined;
    if (as !== undefined) notes.push(`${piece.read.path} has the same content as ${as}, given on an earlier turn`);
    return turn === undefined && as === undefined;
  });
  const paths = new Set(kept.map((piece) => piece.read?.path));
  return { pieces: kept, verdicts: verdicts.filter((verdict) => verdict.verdict === 'applied' && paths.has(verdict.path)) };
}
