/**
 * @module providers/rules/chain-pieces
 * The directory files the focus chains found, as rule pieces with their verdicts: two files with
 * the same blob become one piece (the one on the working directory's chain if either is, else the
 * first in tree order), which applies to the focus of both; each piece is ranked for the budget
 * by where it sits among the focus (see rule-entries).
 */
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import { pathTitle } from '../../context/title.ts';
import type { ReadResult } from '../../sources/snapshot.ts';
import type { ChainFile } from './focus-chains.ts';
import { importsIn } from './pieces.ts';
import type { RankedPiece } from './rule-entries.ts';

export interface ReadChainFile {
  file: ChainFile;
  read: Extract<ReadResult, { status: 'ok' }>;
}

export interface ChainPieceOptions {
  /** The task's focus in order (the working directory first), so merged duplicates keep it. */
  order: readonly string[];
  maxFileBytes: number;
  /** Whether a file on the working directory's chain may be commit-stable (false on later turns). */
  shareable: boolean;
}

/** Focus labels named in a verdict's reason; the rest are counted. */
const NAMED = 3;

export function chainPieces(files: readonly ReadChainFile[], options: ChainPieceOptions): { ranked: RankedPiece[]; verdicts: RuleVerdictInput[] } {
  const ranked: RankedPiece[] = [];
  const verdicts: RuleVerdictInput[] = [];
  for (const { file, read, duplicates } of dedupe(files, options.order)) {
    const title = pathTitle(read.path);
    const warnings: string[] = [];
    if (read.resolvedFrom) warnings.push(`${read.path} is a symlink to ${read.resolvedFrom.target}, resolved at this commit`);
    if (read.truncated) warnings.push(`${read.path}: read the first ${options.maxFileBytes} of ${read.size} bytes`);
    for (const duplicate of duplicates) warnings.push(`${duplicate.path} has the same content (blob ${read.blob.slice(0, 12)}) and is given once, as ${read.path}`);
    ranked.push({
      piece: { title, read, body: read.text, stability: options.shareable && file.shared ? 'commit' : 'task', warnings, imports: importsIn(read.path) },
      rank: { nearest: file.nearestFor.length > 0, appliesTo: file.appliesTo, depth: file.dir === '' ? 0 : file.dir.split('/').length },
    });
    const reason = `directory chain of ${labels(file.appliesTo)}`;
    const text = { bytes: read.size, blank: read.text.trim() === '' };
    verdicts.push({ path: read.path, blob: read.blob, format: 'directory-file', verdict: 'applied', reason, entry: title, found: { dir: file.dir, shared: file.shared, ...text } });
    for (const duplicate of duplicates) {
      verdicts.push({ path: duplicate.path, blob: duplicate.blob, format: 'directory-file', verdict: 'applied', reason: `${reason}; the same content as ${read.path}, given once as it`, entry: title, found: { dir: duplicate.dir, shared: duplicate.shared, ...text } });
    }
  }
  return { ranked, verdicts };
}

function labels(focus: readonly string[]): string {
  if (focus.length === 0) return 'the focus';
  const shown = focus.slice(0, NAMED).join(', ');
  return focus.length > NAMED ? `${shown} and ${focus.length - NAMED} more` : shown;
}

interface Unique extends ReadChainFile {
  /** The files with the same blob given as this one. */
  duplicates: Array<{ path: string; blob: string; dir: string; shared: boolean }>;
}

/** One file per blob: the one on the working directory's chain if any is, else the first in tree order. */
function dedupe(files: readonly ReadChainFile[], order: readonly string[]): Unique[] {
  const rank = new Map(order.map((label, i) => [label, i]));
  const byBlob = new Map<string, ReadChainFile[]>();
  for (const item of files) byBlob.set(item.read.blob, [...(byBlob.get(item.read.blob) ?? []), item]);
  const kept = new Map<ReadChainFile, Unique>();
  for (const group of byBlob.values()) {
    const first = group.find((item) => item.file.shared) ?? group[0];
    if (!first) continue;
    const merge = (key: 'appliesTo' | 'nearestFor') => [...new Set(group.flatMap((item) => item.file[key]))].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
    kept.set(first, {
      file: { ...first.file, appliesTo: merge('appliesTo'), nearestFor: merge('nearestFor') },
      read: first.read,
      duplicates: group.filter((item) => item !== first).map((item) => ({ path: item.read.path, blob: item.read.blob, dir: item.file.dir, shared: item.file.shared })),
    });
  }
  return files.flatMap((item) => {
    const unique = kept.get(item);
    return unique ? [unique] : [];
  });
}
