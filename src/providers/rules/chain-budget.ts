/**
 * @module providers/rules/chain-budget
 * How the rules budget is shared among the files of every chain: max-min fairly (fair-share.ts),
 * so a huge root file cannot starve the nearer ones. When a share cannot hold even the
 * truncation marker, files are left out until every kept share can, and the file nearest to a
 * focus path (or the working directory) goes last: first the files nearest to none, those that
 * apply to the fewest focus paths and the deepest first; what is left out frees its share for
 * the rest.
 */
import { fairShare } from './fair-share.ts';

export interface BudgetFile {
  /** Tokens its whole text needs. */
  need: number;
  /** Nearest file of some focus path: never left out for another's sake. */
  nearest: boolean;
  /** How many focus paths it applies to. */
  reach: number;
  depth: number;
}

/**
 * Each file's share of `budget`, or `undefined` for a file left out. `holds(i, share)` says
 * whether file `i` shows anything at that share (its text, or a prefix with the marker).
 *
 * @example
 * chainShares([{ need: 10_000, nearest: false, reach: 3, depth: 0 }, { need: 50, nearest: true, reach: 1, depth: 2 }], 1_000, () => true)
 * // [950, 50]
 */
export function chainShares(files: readonly BudgetFile[], budget: number, holds: (index: number, share: number) => boolean): Array<number | undefined> {
  const kept = files.map((_, index) => index);
  for (;;) {
    const shares = fairShare(
      kept.map((index) => files[index]?.need ?? 0),
      budget,
    );
    const starving = kept.filter((index, k) => !holds(index, shares[k] ?? 0));
    if (starving.length === 0) {
      const result: Array<number | undefined> = files.map(() => undefined);
      kept.forEach((index, k) => (result[index] = shares[k]));
      return result;
    }
    // A starving nearest file is helped by leaving out one that is nearest to nothing; files that
    // are nearest to nothing and starve are simply left out (they cannot show anything anyway).
    const helpers = kept.filter((index) => !files[index]?.nearest);
    const pool = starving.some((index) => files[index]?.nearest) && helpers.length > 0 ? helpers : starving;
    const drop = [...pool].sort((a, b) => leaveOutOrder(files, a, b))[0];
    if (drop === undefined) return files.map(() => undefined);
    kept.splice(kept.indexOf(drop), 1);
  }
}

/** Nearest to nothing first, then the fewest focus paths, the deepest, the latest. */
function leaveOutOrder(files: readonly BudgetFile[], a: number, b: number): number {
  const x = files[a];
  const y = files[b];
  if (!x || !y) return 0;
  return Number(x.nearest) - Number(y.nearest) || x.reach - y.reach || y.depth - x.depth || b - a;
}
