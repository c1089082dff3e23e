/**
 * @module providers/rules/other-files
 * The files of a directory besides its instruction file: another of the `filenames`, which the
 * first present shadows (a `CLAUDE.md` beside the `AGENTS.md` Groundwork gives), or a name only a
 * client reads. Each is read (a client may load it, and its size and blob count) and gets a
 * verdict, so no file on the chains is silent: `shadowed by AGENTS.md in the same directory`.
 */
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { describeUnreadable } from './chain-reads.ts';
import type { OtherFile } from './focus-chains.ts';

export async function otherFileVerdicts(snapshot: Snapshot, others: readonly OtherFile[], filenames: readonly string[], maxBytes: number, signal: AbortSignal): Promise<{ verdicts: RuleVerdictInput[]; texts: Array<{ path: string; text: string }> }> {
  const reads = await Promise.all(others.map((file) => snapshot.read(file.path, { maxBytes, signal })));
  const texts = reads.flatMap((read) => (read.status === 'ok' ? [{ path: read.path, text: read.text }] : []));
  const verdicts = others.map((file, i): RuleVerdictInput => {
    const read = reads[i];
    if (read?.status === 'failed') throw new Error(`could not read ${read.path}: ${read.reason}`);
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const shadowed = file.by !== undefined && filenames.includes(name);
    const why = shadowed ? `shadowed by ${file.by} in the same directory` : `not one of this run's instruction file names (filenames: ${filenames.join(', ')})`;
    const verdict = shadowed ? ('shadowed' as const) : ('not-applied' as const);
    if (read?.status !== 'ok') return { path: file.path, format: 'directory-file', verdict, reason: read ? `${why}; ${describeUnreadable(read)}` : why, found: { dir: file.dir, shared: file.shared } };
    return { path: file.path, blob: read.blob, format: 'directory-file', verdict, reason: why, found: { dir: file.dir, shared: file.shared, bytes: read.size, blank: read.text.trim() === '' } };
  });
  return { verdicts, texts };
}
