/**
 * @module providers/rules/build-rules
 * The last steps of a rules run, the same on every turn: each importing piece followed by what it
 * imports, every client's answer for every file found (the verdicts' matrix rows), the complement
 * for the task's client (complement.ts), and every piece through the one budget (rule-entries). A
 * verdict whose entry the budget could not hold is settled by the runner ("…, but the token
 * budget left it out"), like one whose entry the provider's own budget dropped later.
 */
import type { ClientRef } from '../../context/client.ts';
import type { EntryInput } from '../../context/entry.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { clientLoads, withCells } from './client-loads.ts';
import { complementFor } from './complement.ts';
import type { RulesConfig } from './config.ts';
import { withImports, type RulePiece } from './pieces.ts';
import { ruleEntries, type PieceRank, type RankedPiece } from './rule-entries.ts';

export interface BuiltRules {
  entries: EntryInput[];
  notes: string[];
  verdicts: RuleVerdictInput[];
  /** Paths (or titles) of the pieces the budget could not hold at all. */
  dropped: string[];
}

export interface ResolveInput {
  snapshot: Snapshot;
  /** Directory files, ranked; then the formats' pieces, in render order. */
  ranked: readonly RankedPiece[];
  pieces: readonly RulePiece[];
  verdicts: readonly RuleVerdictInput[];
  config: RulesConfig;
  signal: AbortSignal;
  /** The client that reads the context, and the directory it starts in. */
  client: ClientRef;
  cwd: string;
  /** Whether to name the files the client loads itself (turn 0; a later turn adds only what is new). */
  listLoaded: boolean;
}

export interface ResolvedRules {
  /** What Groundwork gives the client, in render order, ranked where a directory file is. */
  ranked: RankedPiece[];
  /** One per file found (and per reference not followed), each with its row of client cells. */
  verdicts: RuleVerdictInput[];
}

/** Imports, client answers and the complement: what the budget then shares. */
export async function resolveRules(input: ResolveInput): Promise<ResolvedRules> {
  const { snapshot, config, signal } = input;
  const ranks = new Map<string, PieceRank | undefined>(input.ranked.map(({ piece, rank }) => [piece.title, rank]));
  const expanded = await withImports([...input.ranked.map(({ piece }) => piece), ...input.pieces], { snapshot, config, signal });
  const all = [...input.verdicts, ...expanded.verdicts];
  const loads = clientLoads(all, input.cwd, input.client);
  const verdicts = withCells(all, loads);
  const chosen = input.client.name === 'none' ? { pieces: expanded.pieces, verdicts } : complementFor({ pieces: expanded.pieces, verdicts, loads, client: input.client, cwd: input.cwd, listLoaded: input.listLoaded });
  return {
    ranked: chosen.pieces.map((piece) => {
      const rank = ranks.get(piece.title);
      return rank ? { piece, rank } : { piece };
    }),
    verdicts: chosen.verdicts,
  };
}

export async function buildRules(input: ResolveInput & { budget: number }): Promise<BuiltRules> {
  const resolved = await resolveRules(input);
  const made = ruleEntries(input.snapshot, resolved.ranked, input.budget);
  return { entries: made.entries, notes: made.notes, verdicts: resolved.verdicts, dropped: made.dropped.map((piece) => piece.read?.path ?? piece.title) };
}
