/**
 * @module providers/rules/chain-entries
 * Read instruction files -> entries: two files with the same blob become one entry (the one on
 * the working directory's chain if either is, else the first in tree order), the budget is shared
 * by chain-budget, and each entry says which focus paths it applies to.
 *
 * Stability: a file on the working directory's chain is `commit` when it renders exactly as it
 * would for a task without focus paths (every task on this commit and working directory then
 * shares it); when this task's focus paths took part of its share, it is `task`, like every file
 * only focus paths bring, so it never splits the prefix the others share.
 */
import { MAX_APPLIES_TO, type EntryInput } from '../../context/entry.ts';
import { pathTitle } from '../../context/title.ts';
import { countTokens } from '../../context/tokens.ts';
import { truncateToTokens, type Truncation } from '../../context/truncate.ts';
import type { ReadResult, Snapshot } from '../../sources/snapshot.ts';
import { chainShares } from './chain-budget.ts';
import type { ChainFile } from './focus-chains.ts';

export interface ReadChainFile {
  file: ChainFile;
  read: Extract<ReadResult, { status: 'ok' }>;
}

export interface ChainEntries {
  entries: EntryInput[];
  notes: string[];
  /** Paths of files the budget could not hold at all. */
  dropped: string[];
}

export interface ChainEntryOptions {
  budget: number;
  maxFileBytes: number;
  /** The task's focus in order (the working directory first), so merged duplicates keep it. */
  order: readonly string[];
  /** Whether any file may be `commit`-stable (false on later turns). */
  shareable: boolean;
}

export function chainEntries(snapshot: Snapshot, files: readonly ReadChainFile[], options: ChainEntryOptions): ChainEntries {
  const { budget } = options;
  const notes: string[] = [];
  const unique = dedupe(files, options.order);
  const cut = (index: number, share: number): Truncation | undefined => {
    const item = unique[index];
    return item ? truncateToTokens(item.read.text, share, item.read.path) : undefined;
  };
  const budgetFiles = unique.map(({ file, read }) => ({
    need: countTokens(read.text),
    nearest: file.nearestFor.length > 0,
    reach: file.appliesTo.length,
    depth: file.dir === '' ? 0 : file.dir.split('/').length,
  }));
  const shares = chainShares(budgetFiles, budget, (index, share) => cut(index, share) !== undefined);
  // What a task without focus paths would give the working directory's chain.
  const shared = unique.map((item, index) => ({ item, index })).filter(({ item }) => item.file.shared);
  const alone = chainShares(
    shared.map(({ index }) => budgetFiles[index] ?? { need: 0, nearest: false, reach: 0, depth: 0 }),
    budget,
    (k, share) => cut(shared[k]?.index ?? -1, share) !== undefined,
  );
  const soloShare = new Map(shared.map(({ index }, k) => [index, alone[k]]));

  const entries: EntryInput[] = [];
  const dropped: string[] = [];
  unique.forEach(({ file, read, duplicates }, i) => {
    const share = shares[i];
    const shown = share === undefined ? undefined : cut(i, share);
    if (share === undefined || !shown) {
      dropped.push(read.path);
      notes.push(`left out ${read.path}: the ${budget}-token budget could not hold it beside the nearer files`);
      return;
    }
    const solo = soloShare.get(i);
    const same = solo !== undefined && cut(i, solo)?.text === shown.text;
    const warnings: string[] = [];
    if (read.resolvedFrom) warnings.push(`${read.path} is a symlink to ${read.resolvedFrom.target}, resolved at this commit`);
    if (read.truncated) warnings.push(`${read.path}: read the first ${options.maxFileBytes} of ${read.size} bytes`);
    if (shown.truncated) warnings.push(`${read.path}: truncated to a fair share of ${share} tokens, shown ${shown.shown}/${shown.total} chars`);
    for (const duplicate of duplicates) warnings.push(`${duplicate} has the same content (blob ${read.blob.slice(0, 12)}) and is given once, as ${read.path}`);
    entries.push({
      title: pathTitle(read.path),
      body: shown.text,
      source: { uri: snapshot.uri(read.path), path: read.path, revision: snapshot.commit, blob: read.blob },
      freshness: 'pinned',
      stability: options.shareable && file.shared && same ? 'commit' : 'task',
      appliesTo: { paths: file.appliesTo.slice(0, MAX_APPLIES_TO), total: file.appliesTo.length },
      warnings,
      truncated: shown.truncated,
    });
  });
  return { entries, notes, dropped };
}

interface Unique extends ReadChainFile {
  /** Paths of the files with the same blob given as this one. */
  duplicates: string[];
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
      duplicates: group.filter((item) => item !== first).map((item) => item.read.path),
    });
  }
  return files.flatMap((item) => {
    const unique = kept.get(item);
    return unique ? [unique] : [];
  });
}
