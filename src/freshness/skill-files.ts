/**
 * @module freshness/skill-files
 * The SKILL.md files under a skills root, with their blob ids, from listings only. The walk
 * follows the skills provider's shape: it does not descend into a directory that holds a
 * skill (its subdirectories are the skill's files) nor into symlinked directories, and it is
 * bounded so a hostile tree cannot make it list without end.
 */
import type { Snapshot } from '../sources/snapshot.ts';
import { findSkillFile } from '../lib/skill-file.ts';
import { lookupBlob } from './lookup.ts';

/** As deep and as wide as the skills provider walks by default. */
const MAX_DEPTH = 4;
const MAX_DIRECTORIES = 200;

export type SkillFiles =
  /** Skill directory -> blob id of its SKILL.md. `partial` when the walk stopped at a limit. */
  | { status: 'ok'; skills: Map<string, string>; partial: boolean }
  | { status: 'missing' }
  | { status: 'failed'; reason: string };

export async function skillFiles(snapshot: Snapshot, root: string, signal?: AbortSignal): Promise<SkillFiles> {
  const found = new Map<string, { path: string; oid?: string }>();
  let level = [root];
  let listed = 0;
  let partial = false;
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > MAX_DEPTH || listed + level.length > MAX_DIRECTORIES) {
      partial = true;
      break;
    }
    listed += level.length;
    const listings = await Promise.all(level.map((dir) => snapshot.list(dir, signal ? { signal } : {})));
    const next: string[] = [];
    for (const [i, listing] of listings.entries()) {
      if (listing.status === 'missing' || listing.status === 'not-a-directory') {
        if (depth === 0) return { status: 'missing' };
        continue;
      }
      if (listing.status !== 'ok') return { status: 'failed', reason: listing.reason };
      const file = findSkillFile(listing.entries);
      if (file) {
        found.set(level[i] ?? '', { path: file.path, ...(file.kind === 'file' && file.oid !== undefined ? { oid: file.oid } : {}) });
        continue;
      }
      for (const entry of listing.entries) if (entry.kind === 'dir') next.push(entry.path);
    }
    level = next.sort();
  }
  // Symlinked SKILL.md files are compared by their target's blob, as the skills provider reads them.
  const blobs = await Promise.all(
    [...found].map(async ([dir, file]) => [dir, file.oid !== undefined ? { status: 'file' as const, blob: file.oid } : await lookupBlob(snapshot, file.path, signal)] as const),
  );
  const skills = new Map<string, string>();
  for (const [dir, blob] of blobs) {
    if (blob.status === 'failed') return { status: 'failed', reason: blob.reason };
    if (blob.status === 'file') skills.set(dir, blob.blob);
  }
  return { status: 'ok', skills, partial };
}
