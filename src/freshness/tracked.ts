/**
 * @module freshness/tracked
 * Which sources reached the model, from the entries of earlier turns: every entry that names a
 * repository file by path, commit and blob id (rules files, selected skills, any provider's
 * file), and every skills index (a directory whose SKILL.md files it listed). Entries without
 * a blob id that are not a skills index (a repository inventory, a host notice) name no
 * content to compare and are left out. Each source is tracked once, however many turns or
 * providers had it (the first, in render order, names it).
 */
import type { Source } from '../context/entry.ts';
import type { SourceKind } from './report.ts';

/** What the turn ledger keeps of an entry: enough to find its source again. */
export interface RecordedEntry {
  provider: string;
  category: string;
  title: string;
  source: Source;
}

export interface TrackedSource {
  provider: string;
  kind: SourceKind;
  title: string;
  path: string;
  /** The commit it was read at. */
  revision: string;
  /** Its blob id there (files only). */
  blob?: string;
}

export function trackedSources(entries: readonly RecordedEntry[]): TrackedSource[] {
  const tracked = new Map<string, TrackedSource>();
  for (const entry of entries) {
    const { path, revision, blob } = entry.source;
    if (revision === undefined) continue;
    let source: TrackedSource | undefined;
    if (path !== undefined && blob !== undefined) source = { provider: entry.provider, kind: 'file', title: entry.title, path, revision, blob };
    else if (entry.category === 'skills' && blob === undefined) source = { provider: entry.provider, kind: 'skills-index', title: entry.title, path: path ?? '', revision };
    if (!source) continue;
    // Compared from the task's commit whatever revision cited it, so one path is one source.
    const key = `${source.kind}\0${source.path}`;
    if (!tracked.has(key)) tracked.set(key, source);
  }
  return [...tracked.values()];
}

/** How a source is named to the model: a skill by its directory, an index by its root. */
export function sourceLabel(source: { kind: SourceKind; path: string }): string {
  if (source.kind === 'skills-index') return `skills index (${source.path || '.'})`;
  const parts = source.path.split('/');
  if (parts.length >= 2 && /^skill\.md$/i.test(parts.at(-1) ?? '')) return `skill ${parts.at(-2)} (${source.path})`;
  return source.path;
}
