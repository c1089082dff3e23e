/**
 * @module sources/git/remote-refs
 * Resolves a ref on a smart-HTTP remote with ls-refs, asking only for the names the ref could
 * mean (protocol v2 filters on the server), so a repository with thousands of refs costs the
 * same as one with three.
 */
import type { HttpClient, ServerRef } from 'isomorphic-git';
import { isomorphicGit } from './isomorphic-git.ts';

/** Candidate full names in git's precedence order: tags shadow branches of the same name. */
export function candidateRefs(ref: string): string[] {
  if (ref === 'HEAD' || ref.startsWith('refs/')) return [ref];
  return [`refs/tags/${ref}`, `refs/heads/${ref}`];
}

/** The commit (or, for a tag, the peeled object) `ref` names, or undefined when it is absent. */
export async function lookupRemoteRef(http: HttpClient, url: string, headers: Record<string, string>, ref: string): Promise<string | undefined> {
  const names = candidateRefs(ref);
  const { listServerRefs } = await isomorphicGit();
  // Concurrent: two prefixes cost one round trip of latency, not two.
  const listed = await Promise.all(
    // isomorphic-git writes `Git-Protocol` into the headers it is given: each call gets a copy.
    names.map((prefix) => listServerRefs({ http, url, headers: { ...headers }, prefix, symrefs: true, peelTags: true, protocolVersion: 2 })),
  );
  for (const [index, name] of names.entries()) {
    const hit = listed[index]?.find((entry: ServerRef) => entry.ref === name);
    if (hit) return hit.peeled ?? hit.oid;
  }
  return undefined;
}
