/**
 * @module sources/github/loader
 * A TreeLoader over the GitHub git-data API: one recursive tree request per commit (the
 * snapshot memoises it, so every list() shares it), one blob request per file read, issued
 * in parallel when callers read in parallel, and one commit request when its date is asked for.
 */
import type { Octokit } from '@octokit/core';
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { isoFromText } from '../commit-info.ts';
import type { CommitInfo, CommitSha } from '../snapshot.ts';
import type { TreeLoader } from '../tree-loader.ts';
import { base64ToBytes } from './base64.ts';
import { PermanentSourceError } from '../permanent.ts';
import { describeFailure, isPermanentFailure, rethrowIfAborted } from './errors.ts';
import { loadFlatTree } from './tree-walk.ts';
import type { FetchTree } from './tree-walk.ts';

const TreeResponse = lazySchema(() => z.object({
  truncated: z.boolean(),
  tree: z.array(z.object({ path: z.string(), mode: z.string(), type: z.string(), sha: z.string(), size: z.number().optional() })),
}));

const BlobResponse = lazySchema(() => z.object({ content: z.string(), encoding: z.enum(['base64', 'utf-8']) }));

const Sha = lazySchema(() => z.string().regex(/^[0-9a-f]{40}$|^[0-9a-f]{64}$/));
/** `GET /repos/{o}/{r}/git/commits/{sha}`; the message is not modelled, so it is never kept. */
const CommitResponse = lazySchema(() => z.object({
  sha: Sha,
  tree: z.object({ sha: Sha }),
  parents: z.array(z.object({ sha: Sha })),
  author: z.object({ date: z.string() }),
  committer: z.object({ date: z.string() }),
}));

export interface GitHubLoaderScope {
  owner: string;
  repo: string;
  commit: CommitSha;
}

/**
 * @example
 * const snapshot = createTreeSnapshot({ repository, commit, uri, loader: createGitHubLoader(octokit, { owner, repo, commit }) });
 */
export function createGitHubLoader(octokit: Octokit, { owner, repo, commit }: GitHubLoaderScope): TreeLoader {
  const fetchTree: FetchTree = async (treeish, recursive, signal) => {
    const response = await octokit.request('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', {
      owner,
      repo,
      tree_sha: treeish,
      ...(recursive ? { recursive: '1' } : {}),
      request: signal ? { signal } : {},
    });
    return TreeResponse.parse(response.data);
  };

  const fetchBlob = async (oid: string, signal?: AbortSignal): Promise<Uint8Array> => {
    const response = await octokit.request('GET /repos/{owner}/{repo}/git/blobs/{file_sha}', {
      owner,
      repo,
      file_sha: oid,
      request: signal ? { signal } : {},
    });
    const blob = BlobResponse.parse(response.data);
    return blob.encoding === 'base64' ? base64ToBytes(blob.content) : new TextEncoder().encode(blob.content);
  };

  const failed = (error: unknown, subject: string): Error => {
    const reason = describeFailure(error, subject);
    return isPermanentFailure(error) ? new PermanentSourceError(reason) : new Error(reason);
  };

  const fetchCommit = async (signal?: AbortSignal): Promise<CommitInfo> => {
    const response = await octokit.request('GET /repos/{owner}/{repo}/git/commits/{commit_sha}', {
      owner,
      repo,
      commit_sha: commit,
      request: signal ? { signal } : {},
    });
    const data = CommitResponse.parse(response.data);
    return {
      commit,
      tree: data.tree.sha,
      parents: data.parents.map((parent) => parent.sha),
      committedAt: isoFromText(data.committer.date),
      authoredAt: isoFromText(data.author.date),
    };
  };

  return {
    async loadTree(signal) {
      try {
        return await loadFlatTree(fetchTree, commit, signal);
      } catch (error) {
        rethrowIfAborted(signal);
        throw failed(error, `commit ${commit} in ${owner}/${repo}`);
      }
    },
    async loadBlob(oid, signal) {
      try {
        return await fetchBlob(oid, signal);
      } catch (error) {
        rethrowIfAborted(signal);
        throw failed(error, `blob ${oid} in ${owner}/${repo}`);
      }
    },
    async loadCommit(signal) {
      try {
        return await fetchCommit(signal);
      } catch (error) {
        rethrowIfAborted(signal);
        throw failed(error, `commit ${commit} in ${owner}/${repo}`);
      }
    },
  };
}
