/**
 * @module sources/git/peel
 * Follows annotated tags down to the commit they name. A snapshot is always of a commit: a ref
 * that ends at a tree or a blob cannot be pinned and is reported instead.
 */
import { readObject } from 'isomorphic-git';
import type { GitObjectStore } from './object-loader.ts';

export type PeelResult = { ok: true; commit: string } | { ok: false; reason: string };

/** Tags of tags are legal; a loop of them is not, so the walk is bounded. */
const MAX_TAG_DEPTH = 16;

export async function peelToCommit(store: GitObjectStore, oid: string): Promise<PeelResult> {
  let current = oid;
  for (let depth = 0; depth < MAX_TAG_DEPTH; depth++) {
    const object = await readObject({ ...store, oid: current, format: 'parsed' });
    if (object.type === 'commit') return { ok: true, commit: current };
    if (object.format !== 'parsed' || object.type !== 'tag') return { ok: false, reason: `${oid} names a ${object.type}, not a commit` };
    current = object.object.object;
  }
  return { ok: false, reason: `${oid} is nested more than ${MAX_TAG_DEPTH} tags deep` };
}
