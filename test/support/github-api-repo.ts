/**
 * @module test/support/github-api-repo
 * The repository routes of the local GitHub API server (`/repos/{owner}/{repo}/...`), answered
 * from a real git repository: commits, trees and blobs for the GitHub source, pull requests for
 * the trigger lookups, and check runs, which are recorded per scope so tests can read back what
 * a notification sent.
 */
import type { Answer, Scope } from './github-api-scope.ts';
import type { GitObjects } from './git-objects.ts';

/** A pull request the server answers for; `rev`s are any git revision of the repository. */
export interface PullFixture {
  number: number;
  base: { ref: string; rev: string };
  head: { ref: string; rev: string };
}

export interface RepoRoutesOptions {
  owner: string;
  repo: string;
  /** GitHub's numeric repository id, the same in `base.repo` and `head.repo` (not a fork). */
  repoId?: number;
  pulls?: PullFixture[];
}

export interface RepoRequest {
  method: string;
  /** The path after `/repos/{owner}/{repo}/`. */
  rest: string;
  query: URLSearchParams;
  accept: string;
  body: string;
  scope: Scope;
}

const notFound: Answer = { status: 404, body: { message: 'Not Found' } };

export function repoRoutes(git: GitObjects, options: RepoRoutesOptions): (request: RepoRequest) => Promise<Answer> {
  const { owner, repo } = options;
  const repoJson = { id: options.repoId ?? 1296269, name: repo, full_name: `${owner}/${repo}`, owner: { login: owner } };
  let nextCheckRunId = 1;

  const pull = async (number: number): Promise<Answer> => {
    const fixture = options.pulls?.find((candidate) => candidate.number === number);
    if (!fixture) return notFound;
    const side = async ({ ref, rev }: PullFixture['base']) => {
      const sha = await git.commitOf(rev);
      if (!sha) throw new Error(`pull request fixture #${number}: ${rev} is not a commit`);
      return { label: `${owner}:${ref}`, ref, sha, repo: repoJson };
    };
    return {
      status: 200,
      body: {
        number,
        state: 'open',
        draft: false,
        title: `Fixture pull request #${number}`,
        body: null,
        html_url: `https://github.com/${owner}/${repo}/pull/${number}`,
        base: await side(fixture.base),
        head: await side(fixture.head),
      },
    };
  };

  const createCheckRun = async (text: string, scope: Scope): Promise<Answer> => {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { status: 400, body: { message: 'Problems parsing JSON' } };
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { status: 422, body: { message: 'Invalid request' } };
    const fields = body as Record<string, unknown>;
    if (typeof fields['name'] !== 'string' || typeof fields['head_sha'] !== 'string') {
      return { status: 422, body: { message: 'Invalid request: name and head_sha are required' } };
    }
    // GitHub refuses a check run on a commit the repository does not have.
    if ((await git.commitOf(fields['head_sha'])) !== fields['head_sha']) return { status: 422, body: { message: 'No commit found for SHA' } };
    scope.checkRuns.push({ owner, repo, body: fields });
    const id = nextCheckRunId++;
    return {
      status: 201,
      body: { id, name: fields['name'], head_sha: fields['head_sha'], status: fields['status'] ?? 'queued', conclusion: fields['conclusion'] ?? null, external_id: fields['external_id'] ?? '', html_url: `https://github.com/${owner}/${repo}/runs/${id}` },
    };
  };

  return async ({ method, rest, query, accept, body, scope }) => {
    if (method === 'POST') return rest === 'check-runs' ? createCheckRun(body, scope) : notFound;
    if (method !== 'GET') return notFound;

    const pullRoute = /^pulls\/(\d+)$/.exec(rest);
    if (pullRoute) return pull(Number(pullRoute[1]));
    const commitRoute = /^commits\/(.+)$/.exec(rest);
    if (commitRoute) {
      const ref = decodeURIComponent(commitRoute[1] ?? '');
      const sha = await git.commitOf(ref);
      if (!sha) return { status: 422, body: { message: `No commit found for SHA: ${ref}` } };
      if (accept.includes('sha')) return { status: 200, body: sha, headers: { 'content-type': 'application/vnd.github.sha; charset=utf-8' } };
      return { status: 200, body: { sha } };
    }
    const treeRoute = /^git\/trees\/([^/]+)$/.exec(rest);
    if (treeRoute) {
      const recursive = query.has('recursive');
      const tree = await git.tree(decodeURIComponent(treeRoute[1] ?? ''), recursive);
      if (!tree) return notFound;
      const limit = scope.config.treeLimit;
      const truncated = recursive && limit !== undefined && tree.items.length > limit;
      return { status: 200, body: { sha: tree.sha, truncated, tree: truncated ? tree.items.slice(0, limit) : tree.items } };
    }
    const blobRoute = /^git\/blobs\/([0-9a-f]{40})$/.exec(rest);
    if (blobRoute) {
      const sha = blobRoute[1] ?? '';
      const bytes = await git.blob(sha);
      if (!bytes) return notFound;
      const content = (bytes.toString('base64').match(/.{1,60}/g) ?? []).join('\n');
      return { status: 200, body: { sha, size: bytes.length, content, encoding: 'base64' } };
    }
    return notFound;
  };
}
