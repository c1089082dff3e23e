/**
 * @module sources/git/remote-refs
 * Resolves a ref on a smart-HTTP remote with ls-refs (protocol v2), asking only for the names the
 * ref could mean (the server filters on `ref-prefix`), so a repository with thousands of refs
 * costs the same as one with three. A server that predates v2 answers discovery with its whole
 * ref list (v0), which is read instead. Protocol facts: see smart-http.ts and ref-advertisement.ts.
 */
import type { GitHttp } from './http-client.ts';
import { objectFormat, parseLsRefs, type AdvertisedRef } from './ref-advertisement.ts';
import { commandRequest, discover, uploadPack } from './smart-http.ts';
import { PermanentSourceError } from '../permanent.ts';

/** Candidate full names in git's precedence order: tags shadow branches of the same name. */
export function candidateRefs(ref: string): string[] {
  if (ref === 'HEAD' || ref.startsWith('refs/')) return [ref];
  return [`refs/tags/${ref}`, `refs/heads/${ref}`];
}

/** The commit (or, for a tag, the peeled object) `ref` names, or undefined when it is absent. */
export async function lookupRemoteRef(http: GitHttp, url: string, headers: Record<string, string>, ref: string): Promise<string | undefined> {
  const names = candidateRefs(ref);
  // Concurrent: two prefixes cost one round trip of latency, not two.
  const listed = await Promise.all(names.map((prefix) => listRefs(http, url, headers, prefix)));
  for (const [index, name] of names.entries()) {
    const hit = listed[index]?.find((entry) => entry.name === name);
    if (hit) return hit.peeled ?? hit.oid;
  }
  return undefined;
}

async function listRefs(http: GitHttp, url: string, headers: Record<string, string>, prefix: string): Promise<AdvertisedRef[]> {
  const advertised = await discover(http, url, headers, true);
  checkFormat(advertised.capabilities);
  if (advertised.version === 0) return advertised.refs.filter((entry) => entry.name.startsWith(prefix));
  if (![...advertised.capabilities].some((capability) => capability === 'ls-refs' || capability.startsWith('ls-refs='))) {
    throw new PermanentSourceError('the server speaks protocol v2 without its ls-refs command');
  }
  return parseLsRefs(await uploadPack(http, url, headers, commandRequest('ls-refs', ['symrefs', 'peel', `ref-prefix ${prefix}`]), true));
}

/** Object ids here are SHA-1 (40 hex digits); a SHA-256 repository says so rather than failing later. */
export function checkFormat(capabilities: Set<string>): void {
  const format = objectFormat(capabilities);
  if (format !== 'sha1') throw new PermanentSourceError(`the repository uses object format ${JSON.stringify(format.slice(0, 20))}; only SHA-1 repositories can be read`);
}
