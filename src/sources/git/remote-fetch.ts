/**
 * @module sources/git/remote-fetch
 * Fetches exactly one commit from a smart-HTTP remote into memory: depth 1, no checkout, no
 * tags, want-by-sha, over protocol v0 (which every smart server speaks; git 2.39.5's
 * gitprotocol-pack(5) "Packfile Negotiation" and gitprotocol-http(5) "Smart Service
 * git-upload-pack"). Asking for the sha rather than a branch is what keeps a snapshot pinned when
 * the branch moves between resolve and read. Two requests: discovery (the server's
 * capabilities) and one POST whose answer carries the pack, which pack-index.ts checks and
 * indexes; the commit must then be among the objects the pack's bytes hash to.
 *
 * Capabilities asked for are only those the server advertised (gitprotocol-capabilities(5)):
 * `ofs-delta`, `side-band-64k` (else `side-band`), `shallow` (for `deepen 1`), `no-progress`.
 * `thin-pack` and `include-tag` are never asked for, so every delta's base is in the pack.
 */
import { createCappedHttpClient, createTransferBudget, type FetchLike } from './http-client.ts';
import type { GitObjectStore } from './object-loader.ts';
import { DEFAULT_PACK_LIMITS, indexPack } from './pack-index.ts';
import { packFromAnswer } from './pack-response.ts';
import { FLUSH_PKT, malformed, pktLine, ServerRefusal } from './pkt-line.ts';
import { checkFormat } from './remote-refs.ts';
import { discover, uploadPack } from './smart-http.ts';
import { PermanentSourceError } from '../permanent.ts';

export interface FetchCommitOptions {
  url: string;
  headers: Record<string, string>;
  commit: string;
  fetch: FetchLike;
  maxBytes: number;
  signal?: AbortSignal;
}

const MIN_INFLATED_BYTES = 64 * 1024 * 1024;

/** Throws on any failure; `budget` is passed in so the caller can tell a cap overrun apart. */
export async function fetchCommit(options: FetchCommitOptions, budget = createTransferBudget(options.maxBytes)): Promise<GitObjectStore> {
  const { url, headers, commit } = options;
  const http = createCappedHttpClient(options.fetch, budget, options.signal);
  const advertised = await discover(http, url, headers, false);
  // Asked for nothing else, a server answers v0; one that answers v2 anyway is not one this reads.
  if (advertised.version !== 0) throw malformed('the ref advertisement is protocol v2, which a v0 request does not ask for');
  checkFormat(advertised.capabilities);
  const offered = (name: string): boolean => advertised.capabilities.has(name);
  const sideband = offered('side-band-64k') ? 'side-band-64k' : offered('side-band') ? 'side-band' : undefined;
  const deepened = offered('shallow');
  const capabilities = ['ofs-delta', 'no-progress'].filter(offered).concat(sideband ?? [], deepened ? ['shallow'] : []);
  const request = `${pktLine(`want ${commit} ${capabilities.join(' ')}\n`)}${deepened ? pktLine('deepen 1\n') : ''}${FLUSH_PKT}${pktLine('done\n')}`;
  let pack: Uint8Array;
  try {
    pack = packFromAnswer(await uploadPack(http, url, headers, request, false), { deepened, sideband: sideband !== undefined });
  } catch (error) {
    // upload-pack answers a sha it will not serve with `ERR upload-pack: not our ref <sha>`.
    if (error instanceof ServerRefusal && error.said.includes('not our ref')) throw notSent(commit);
    throw error;
  }
  // What a pack may expand to scales with the transfer cap (source compresses 4-10 times, with
  // deltas more), so a small answer cannot cost minutes of inflating; 64 MiB at the least.
  const objects = indexPack(pack, { ...DEFAULT_PACK_LIMITS, maxInflatedBytes: Math.max(MIN_INFLATED_BYTES, 32 * options.maxBytes) });
  const object = objects.read(commit);
  if (object === undefined) throw notSent(commit);
  if (object.type !== 'commit') throw new PermanentSourceError(`${commit} is a ${object.type}, not a commit`);
  return objects;
}

function notSent(commit: string): PermanentSourceError {
  return new PermanentSourceError(`the server sent no commit ${commit}: it does not exist there, or no branch or tag reaches it`);
}
