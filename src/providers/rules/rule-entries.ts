/**
 * @module providers/rules/rule-entries
 * Rule pieces -> entries under one budget. Shares are max-min fair; when a share cannot hold even
 * the truncation marker, chain-budget leaves out pieces until every kept one shows something, the
 * file nearest to a focus path going last (pieces without a rank, such as the formats' rules and
 * imports, count as nearest to nothing).
 *
 * Stability: a commit-stable piece stays `commit` only when it renders exactly as it would among
 * the commit-stable pieces alone (what a task without focus paths gets); when this task's focus
 * took part of its share, it is `task`, so it never splits the prefix the other tasks share.
 */
import { MAX_APPLIES_TO, MAX_WHY_CHARS, type EntryInput } from '../../context/entry.ts';
import { clipTitle } from '../../context/title.ts';
import { countTokens } from '../../context/tokens.ts';
import { truncateToTokens } from '../../context/truncate.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { chainShares, type BudgetFile } from './chain-budget.ts';
import type { RulePiece } from './pieces.ts';

/** Where a directory file sits among the task's focus (see focus-chains). */
export interface PieceRank {
  /** Nearest instruction file of some focus path (or of the working directory). */
  nearest: boolean;
  /** The focus it applies to, in the task's order. */
  appliesTo: readonly string[];
  depth: number;
}

export interface RankedPiece {
  piece: RulePiece;
  rank?: PieceRank;
}

export interface RuleEntries {
  entries: EntryInput[];
  notes: string[];
  /** Pieces the budget could not hold at all, in render order. */
  dropped: RulePiece[];
}

export function ruleEntries(snapshot: Snapshot, ranked: readonly RankedPiece[], budget: number): RuleEntries {
  const nameOf = (piece: RulePiece) => piece.read?.path ?? piece.title;
  const cut = (index: number, share: number) => {
    const item = ranked[index];
    return item ? truncateToTokens(item.piece.body, share, nameOf(item.piece)) : undefined;
  };
  const files: BudgetFile[] = ranked.map(({ piece, rank }) => ({ need: countTokens(piece.body), nearest: rank?.nearest ?? false, reach: rank?.appliesTo.length ?? 0, depth: rank?.depth ?? 0 }));
  const shares = chainShares(files, budget, (index, share) => cut(index, share) !== undefined);
  // What the commit-stable pieces get alone, as a task without focus paths has them.
  const common = ranked.flatMap((item, index) => (item.piece.stability === 'commit' ? [index] : []));
  const alone = chainShares(
    common.map((index) => files[index] ?? { need: 0, nearest: false, reach: 0, depth: 0 }),
    budget,
    (k, share) => cut(common[k] ?? -1, share) !== undefined,
  );
  const soloShare = new Map(common.map((index, k) => [index, alone[k]]));

  const entries: EntryInput[] = [];
  const notes: string[] = [];
  const dropped: RulePiece[] = [];
  ranked.forEach(({ piece, rank }, i) => {
    const share = shares[i];
    const shown = share === undefined ? undefined : cut(i, share);
    if (share === undefined || !shown) {
      dropped.push(piece);
      notes.push(`left out ${nameOf(piece)}: the ${budget}-token budget could not hold it beside the nearer files`);
      return;
    }
    const solo = soloShare.get(i);
    const same = solo !== undefined && cut(i, solo)?.text === shown.text;
    const warnings = [...piece.warnings];
    if (shown.truncated) warnings.push(`${nameOf(piece)}: truncated to a fair share of ${share} tokens, shown ${shown.shown}/${shown.total} chars`);
    entries.push({
      title: piece.title,
      body: shown.text,
      source: piece.read ? { uri: snapshot.uri(piece.read.path), path: piece.read.path, revision: snapshot.commit, blob: piece.read.blob } : { uri: snapshot.uri(''), revision: snapshot.commit },
      freshness: 'pinned',
      stability: piece.stability === 'commit' && same ? 'commit' : 'task',
      ...(rank ? { appliesTo: { paths: rank.appliesTo.slice(0, MAX_APPLIES_TO), total: rank.appliesTo.length } } : {}),
      ...(piece.why === undefined ? {} : { why: clipTitle(piece.why, MAX_WHY_CHARS) }),
      warnings,
      truncated: shown.truncated,
    });
  });
  return { entries, notes, dropped };
}
