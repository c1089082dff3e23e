/**
 * @module providers/rules/fair-share
 * Max-min fair allocation of a token budget: every file gets at least an equal share (or all it
 * needs, if less), and what small files leave over goes to the files that need more. A huge root
 * file therefore cannot starve the nearer, more specific files.
 */

/**
 * @example
 * fairShare([10_000, 50, 300], 1_000) // [650, 50, 300]
 */
export function fairShare(needs: readonly number[], budget: number): number[] {
  const allocation = needs.map(() => 0);
  const byNeed = needs.map((need, index) => ({ need, index })).sort((a, b) => a.need - b.need || a.index - b.index);
  let remaining = budget;
  byNeed.forEach(({ need, index }, rank) => {
    const share = Math.floor(remaining / (byNeed.length - rank));
    const granted = Math.min(need, share);
    allocation[index] = granted;
    remaining -= granted;
  });
  return allocation;
}
