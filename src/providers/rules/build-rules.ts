/**
 * @module providers/rules/build-rules
 * The last steps of a rules run, the same on every turn: each importing piece followed by what it
 * imports, and every piece through the one budget (rule-entries). A verdict whose entry the budget
 * could not hold is settled by the runner ("…, but the token budget left it out"), like one
 * whose entry the provider's own budget dropped later.
 */
import type { EntryInput } from '../../context/entry.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
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

export async function buildRules(input: {
  snapshot: Snapshot;
  /** Directory files, ranked; then the formats' pieces, in render order. */
  ranked: readonly RankedPiece[];
  pieces: readonly RulePiece[];
  verdicts: readonly RuleVerdictInput[];
  config: RulesConfig;
  budget: number;
  signal: AbortSignal;
}): Promise<BuiltRules> {
  const { snapshot, config, budget, signal } = input;
  const ranks = new Map<RulePiece, PieceRank | undefined>(input.ranked.map(({ piece, rank }) => [piece, rank]));
  const expanded = await withImports([...input.ranked.map(({ piece }) => piece), ...input.pieces], { snapshot, config, signal });
  const made = ruleEntries(
    snapshot,
    expanded.pieces.map((piece) => {
      const rank = ranks.get(piece);
      return rank ? { piece, rank } : { piece };
    }),
    budget,
  );
  const verdicts = [...input.verdicts, ...expanded.verdicts];
  return { entries: made.entries, notes: made.notes, verdicts, dropped: made.dropped.map((piece) => piece.read?.path ?? piece.title) };
}
