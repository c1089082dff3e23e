/**
 * @module freshness/compare
 * One source at two commits, by blob id: a file's blob, or for a skills index the blob of each
 * SKILL.md under its root. `before` is the commit the model's knowledge of the source comes
 * from; for the commit the source was read at, its recorded blob is used and nothing is read.
 * Reads that fail make the source `unverifiable` with the reason, never `unchanged`.
 */
import type { Snapshot } from '../sources/snapshot.ts';
import { lookupBlob, type Lookup } from './lookup.ts';
import type { SourceCheck } from './report.ts';
import { skillFiles } from './skill-files.ts';
import type { TrackedSource } from './tracked.ts';

/** Skills named in one index verdict; the rest are counted. */
const MAX_CHANGES = 20;

export interface ComparePair {
  before: Snapshot;
  after: Snapshot;
  signal?: AbortSignal;
}

export async function compareSource(source: TrackedSource, pair: ComparePair): Promise<SourceCheck> {
  return source.kind === 'file' ? compareFile(source, pair) : compareSkillsIndex(source, pair);
}

async function compareFile(source: TrackedSource, { before, after, signal }: ComparePair): Promise<SourceCheck> {
  const base = { provider: source.provider, kind: source.kind, title: source.title, path: source.path, revision: before.commit };
  const known = before.commit === source.revision && source.blob !== undefined;
  const [was, now]: [Lookup, Lookup] = await Promise.all([
    known ? Promise.resolve<Lookup>({ status: 'file', blob: source.blob ?? '' }) : lookupBlob(before, source.path, signal),
    before.commit === after.commit && known ? Promise.resolve<Lookup>({ status: 'file', blob: source.blob ?? '' }) : lookupBlob(after, source.path, signal),
  ]);
  const blob = was.status === 'file' ? was.blob : null;
  if (was.status === 'failed') return { ...base, blob, status: 'unverifiable', reason: `could not read it at ${short(before.commit)}: ${was.reason}` };
  if (now.status === 'failed') return { ...base, blob, status: 'unverifiable', reason: `could not read it at ${short(after.commit)}: ${now.reason}` };
  if (now.status === 'file') {
    const status = now.blob === blob ? 'unchanged' : 'changed';
    return { ...base, blob, status, currentBlob: now.blob };
  }
  // Gone at `after`: deleted, unless it was already gone at `before` (the model was told so).
  if (blob === null) return { ...base, blob, status: 'unchanged' };
  const reason = now.status === 'other' ? `a ${now.kind === 'dir' ? 'directory' : now.kind} is there now` : now.reason;
  return { ...base, blob, status: 'deleted', ...(reason ? { reason } : {}) };
}

async function compareSkillsIndex(source: TrackedSource, { before, after, signal }: ComparePair): Promise<SourceCheck> {
  const base = { provider: source.provider, kind: source.kind, title: source.title, path: source.path, revision: before.commit, blob: null };
  if (before.commit === after.commit) return { ...base, status: 'unchanged' };
  const [was, now] = await Promise.all([skillFiles(before, source.path, signal), skillFiles(after, source.path, signal)]);
  if (was.status === 'failed') return { ...base, status: 'unverifiable', reason: `could not list it at ${short(before.commit)}: ${was.reason}` };
  if (now.status === 'failed') return { ...base, status: 'unverifiable', reason: `could not list it at ${short(after.commit)}: ${now.reason}` };
  const old = was.status === 'ok' ? was.skills : new Map<string, string>();
  if (now.status === 'missing') return old.size === 0 ? { ...base, status: 'unchanged' } : { ...base, status: 'deleted', reason: 'the directory is gone' };

  const changes: string[] = [];
  const name = (dir: string) => `skill ${dir.split('/').at(-1) || '.'}`;
  for (const dir of [...new Set([...old.keys(), ...now.skills.keys()])].sort()) {
    const from = old.get(dir);
    const to = now.skills.get(dir);
    if (from === to) continue;
    changes.push(`${name(dir)} ${from === undefined ? 'added' : to === undefined ? 'deleted' : 'changed'}`);
  }
  const partial = (was.status === 'ok' && was.partial) || now.partial;
  const listed = changes.length > MAX_CHANGES ? [...changes.slice(0, MAX_CHANGES), `+${changes.length - MAX_CHANGES} more`] : changes;
  if (changes.length > 0) return { ...base, status: 'changed', changes: listed, ...(partial ? { reason: 'compared up to the directory limit' } : {}) };
  return { ...base, status: 'unchanged', ...(partial ? { reason: 'compared up to the directory limit' } : {}) };
}

export function short(sha: string): string {
  return sha.slice(0, 7);
}
