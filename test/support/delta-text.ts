/**
 * @module test/support/delta-text
 * The files of the tests' `deltas.git`: versions of one text that differ in a few lines, so git
 * stores all but one as deltas on each other. Pure, so the setup that writes them and the
 * Workers tests that read them back compute the same text.
 */

export const DELTA_FILES = 24;

export function deltaFilePath(version: number): string {
  return `versions/v-${String(version).padStart(2, '0')}.txt`;
}

/** About 6 KiB: 120 numbered lines, of which version `n` rewrites lines n, 2n and 3n. */
export function deltaFileText(version: number): string {
  const lines = Array.from({ length: 120 }, (_, line) => `line ${line}: the quick brown fox jumps over the lazy dog, and the build stays green`);
  for (const changed of [version, 2 * version, 3 * version]) if (changed < lines.length) lines[changed] = `line ${changed}: rewritten in version ${version}`;
  return `${lines.join('\n')}\n`;
}
