/**
 * @module providers/rules/chain-reads
 * Reading the instruction files a turn's chains found, and the notes that say how the focus was
 * followed (a focus path that took a nearer directory's chain, directories past the bound).
 */
import type { ReadResult, Snapshot } from '../../sources/snapshot.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { ReadChainFile } from './chain-pieces.ts';
import type { ChainFile, FocusChains } from './focus-chains.ts';

/** Reads every found file in parallel; what cannot be read as text is a note and a verdict, a failed read a failure. */
export async function readChainFiles(
  snapshot: Snapshot,
  files: readonly ChainFile[],
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ texts: ReadChainFile[]; notes: string[]; verdicts: RuleVerdictInput[] }> {
  const reads = await Promise.all(files.map((file) => snapshot.read(file.path, { maxBytes, signal })));
  const texts: ReadChainFile[] = [];
  const notes: string[] = [];
  const verdicts: RuleVerdictInput[] = [];
  reads.forEach((read, i) => {
    const file = files[i];
    if (read.status === 'failed') throw new Error(`could not read ${read.path}: ${read.reason}`);
    if (read.status === 'ok' && file) texts.push({ file, read });
    else if (read.status !== 'ok') {
      notes.push(`left out ${read.path}: ${describeUnreadable(read)}`);
      verdicts.push({ path: read.path, format: 'directory-file', verdict: 'not-applied', reason: describeUnreadable(read), ...(file ? { found: { dir: file.dir, shared: file.shared } } : {}) });
    }
  });
  return { texts, notes, verdicts };
}

/** Focus paths that took a nearer directory's chain, directories past the bound, directories that could not be listed. */
export function focusNotes(chains: FocusChains, maxDirectories: number): string[] {
  const notes = chains.moved.slice(0, 10).map(({ focus, missing, why, to, cwd }) => {
    const state = why === 'missing' ? 'is not in the tree at this commit' : 'is not a directory at this commit';
    const subject = cwd ? `the working directory ${focus}` : focus;
    return `${missing === focus ? subject : `${subject}: ${missing}`} ${state}; the rules of ${to || '.'} apply`;
  });
  if (chains.moved.length > 10) notes.push(`${chains.moved.length - 10} more focus paths take a nearer directory's rules`);
  if (chains.cut.length > 0) notes.push(`${chains.cut.length} directories past the bound of ${maxDirectories} were not read`);
  return [...notes, ...chains.problems.map((problem) => `left out ${problem}`)];
}

export function describeUnreadable(read: Exclude<ReadResult, { status: 'ok' | 'failed' }>): string {
  switch (read.status) {
    case 'missing':
      return 'not in the tree at this commit';
    case 'not-a-file':
      return `is a ${read.kind}`;
    case 'binary':
      return read.reason === 'nul-byte' ? 'binary file' : 'not valid UTF-8';
    case 'unresolved-symlink':
      return `symlink to ${read.target} not followed (${read.reason})`;
    case 'skipped':
      return read.reason;
    case 'invalid-path':
      return read.reason;
  }
}
