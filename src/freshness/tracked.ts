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

/** What the turn record keeps of a provider's outcome: its verdicts, for rules. */
export interface RecordedOutcome {
  name: string;
  verdicts?: ReadonlyArray<{ path: string; blob?: string; verdict: string }>;
}

/**
 * The tracked sources of a turn whose client loaded rule files itself: the entries' sources, then
 * each file the client loaded (verdict `loaded-by-client`, named by path and blob in the
 * complement's line rather than given again). The model has them as surely as a given file, so
 * they are compared as well: a client reads its own copy once, and an edit under the session is
 * as much news to it.
 */
export function turnSources(turn: { commit: string | null; entries: readonly RecordedEntry[]; providers: readonly RecordedOutcome[] }): TrackedSource[] {
  const tracked = trackedSources(turn.entries);
  const known = new Set(tracked.filter((source) => source.kind === 'file').map((source) => source.path));
  if (turn.commit === null) return tracked;
  for (const outcome of turn.providers) {
    for (const verdict of outcome.verdicts ?? []) {
      if (verdict.verdict !== 'loaded-by-client' || verdict.blob === undefined || known.has(verdict.path)) continue;
      known.add(verdict.path);
      tracked.push({ provider: outcome.name, kind: 'file', title: verdict.path, path: verdict.path, revision: turn.commit, blob: verdict.blob });
    }
  }
  return tracked;
}

/** How a source is named to the model: a skill by its directory, an index by its root. */
export function sourceLabel(source: { kind: SourceKind; path: string }): string {
  if (source.kind === 'skills-index') return `skills index (${source.path || '.'})`;
  const parts = source.path.split('/');
  if (parts.length >= 2 && /^skill\.md$/i.test(parts.at(-1) ?? '')) return `skill ${parts.at(-2)} (${source.path})`;
  return source.path;
}
