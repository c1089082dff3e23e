/**
 * @module test/support/github-api-repo
 * The repository routes of the local GitHub API server (`/repos/{owner}/{repo}/...`), answered
 * from a real git repository: commits, trees and blobs for the GitHub source, pull requests and
 * their changed files (the real diff from the merge base to the head) for the trigger lookups
 * and the task-facts provider, and check runs, which are recorded per scope so tests can read
 * back what a notification sent.
 */
import { commitFixtures, type CommitChecksFixture, CommitChecksFixtureSchema, type PullState, PullStateSchema } from './github-api-checks.ts';
import type { Answer, Scope } from './github-api-scope.ts';
import type { GitChangedFile, GitObjects } from './git-objects.ts';

/** A pull request the server answers for; `rev`s are any git revision of the repository. */
export interface PullFixture extends Omit<PullState, 'state'> {
  number: number;
  base: { ref: string; rev: string };
  head: { ref: string; rev: string };
  title?: string;
  body?: string | null;
  author?: string;
  labels?: string[];
  state?: 'open' | 'closed';
}

/** The repository routes, and what tests change mid-run: pull requests and the checks on commits. */
export interface RepoRoutes {
  answer(request: RepoRequest): Promise<Answer>;
  /** A new pull request; its number is the next free one from 1000. */
  addPull(fixture: Omit<PullFixture, 'number'>): number;
  /** Changes a pull request's state; false when there is no such pull request. */
  updatePull(number: number, state: PullState): boolean;
  setChecks(commit: string, checks: CommitChecksFixture): void;
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
  /** The request's absolute URL, for `Link` headers. */
  self: URL;
}

const notFound: Answer = { status: 404, body: { message: 'Not Found' } };

/** git's status letters as GitHub names them in `pulls/{n}/files`. */
const FILE_STATUS: Record<string, string> = { A: 'added', D: 'removed', M: 'modified', R: 'renamed', C: 'copied', T: 'changed' };

export function repoRoutes(git: GitObjects, options: RepoRoutesOptions): RepoRoutes {
  const { owner, repo } = options;
  const repoJson = { id: options.repoId ?? 1296269, name: repo, full_name: `${owner}/${repo}`, owner: { login: owner } };
  let nextCheckRunId = 1;
  const pulls = new Map<number, PullFixture>((options.pulls ?? []).map((fixture) => [fixture.number, fixture]));
  let nextPull = 1000;
  const commits = commitFixtures(owner, repo);

  const changedFiles = async (fixture: PullFixture): Promise<GitChangedFile[]> => {
    const files = await git.diff(fixture.base.rev, fixture.head.rev);
    if (!files) throw new Error(`pull request fixture #${fixture.number}: no diff between ${fixture.base.rev} and ${fixture.head.rev}`);
    return files;
  };

  const pull = async (number: number): Promise<Answer> => {
    const fixture = pulls.get(number);
    if (!fixture) return notFound;
    const side = async ({ ref, rev }: PullFixture['base']) => {
      const sha = await git.commitOf(rev);
      if (!sha) throw new Error(`pull request fixture #${number}: ${rev} is not a commit`);
      return { label: `${owner}:${ref}`, ref, sha, repo: repoJson };
    };
    const files = await changedFiles(fixture);
    const login = fixture.author ?? 'octocat';
    return {
      status: 200,
      body: {
        number,
        state: fixture.state ?? (fixture.merged ? 'closed' : 'open'),
        merged: fixture.merged ?? false,
        mergeable: fixture.mergeable === undefined ? true : fixture.mergeable,
        mergeable_state: fixture.mergeableState ?? 'clean',
        draft: fixture.draft ?? false,
        title: fixture.title ?? `Fixture pull request #${number}`,
        body: fixture.body ?? null,
        user: { login, id: 583231, type: 'User', html_url: `https://github.com/${login}` },
        labels: (fixture.labels ?? []).map((name, i) => ({ id: 208045946 + i, name, color: 'f29513', default: false, description: null })),
        html_url: `https://github.com/${owner}/${repo}/pull/${number}`,
        base: await side(fixture.base),
        head: await side(fixture.head),
        additions: files.reduce((sum, file) => sum + (file.additions ?? 0), 0),
        deletions: files.reduce((sum, file) => sum + (file.deletions ?? 0), 0),
        changed_files: files.length,
      },
    };
  };

  /** GitHub's `pulls/{n}/files`: 30 per page by default, at most 100, `Link` to the next and last page. */
  const pullFiles = async (number: number, query: URLSearchParams, self: URL): Promise<Answer> => {
    const fixture = pulls.get(number);
    if (!fixture) return notFound;
    const files = await changedFiles(fixture);
    const perPage = Math.min(100, Math.max(1, Number(query.get('per_page') ?? 30) || 30));
    const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
    const last = Math.max(1, Math.ceil(files.length / perPage));
    const body = files.slice((page - 1) * perPage, page * perPage).map((file) => ({
      sha: file.blob,
      filename: file.path,
      status: FILE_STATUS[file.status] ?? 'changed',
      additions: file.additions ?? 0,
      deletions: file.deletions ?? 0,
      changes: (file.additions ?? 0) + (file.deletions ?? 0),
      blob_url: `https://github.com/${owner}/${repo}/blob/${file.blob}/${file.path}`,
      raw_url: `https://github.com/${owner}/${repo}/raw/${file.blob}/${file.path}`,
      contents_url: `https://api.github.com/repos/${owner}/${repo}/contents/${file.path}`,
      ...(file.previousPath === undefined ? {} : { previous_filename: file.previousPath }),
    }));
    const link = (n: number, rel: string) => {
      const url = new URL(self);
      url.searchParams.set('per_page', String(perPage));
      url.searchParams.set('page', String(n));
      return `<${url.toString()}>; rel="${rel}"`;
    };
    const links = page < last ? [link(page + 1, 'next'), link(last, 'last')] : [];
    return { status: 200, body, ...(links.length > 0 ? { headers: { link: links.join(', ') } } : {}) };
  };

  const commitObject = async (sha: string): Promise<Answer> => {
    const commit = await git.commit(sha);
    if (!commit) return notFound;
    const api = `https://api.github.com/repos/${owner}/${repo}/git`;
    return {
      status: 200,
      body: {
        sha: commit.sha,
        node_id: 'C_kwDOAAABc9oAKDc2Mzg0MTdkYjZkNTlmM2M0MzFkM2UxZjI2MWNjNjM3MTU1Njg0Y2Q',
        url: `${api}/commits/${commit.sha}`,
        html_url: `https://github.com/${owner}/${repo}/commit/${commit.sha}`,
        author: commit.author,
        committer: commit.committer,
        tree: { sha: commit.tree, url: `${api}/trees/${commit.tree}` },
        message: commit.message,
        parents: commit.parents.map((parent) => ({ sha: parent, url: `${api}/commits/${parent}`, html_url: `https://github.com/${owner}/${repo}/commit/${parent}` })),
        verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
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

  const commitChecks = async (ref: string, kind: string, query: URLSearchParams, self: URL): Promise<Answer> => {
    const sha = await git.commitOf(decodeURIComponent(ref));
    if (!sha) return { status: 422, body: { message: `No commit found for SHA: ${ref}` } };
    return kind === 'check-runs' ? commits.checkRuns(sha, query, self) : commits.combinedStatus(sha, query, self);
  };

  const answer = async ({ method, rest, query, accept, body, scope, self }: RepoRequest): Promise<Answer> => {
    if (method === 'POST') return rest === 'check-runs' ? createCheckRun(body, scope) : notFound;
    if (method !== 'GET') return notFound;

    const checksRoute = /^commits\/([^/]+)\/(check-runs|status)$/.exec(rest);
    if (checksRoute) return commitChecks(checksRoute[1] ?? '', checksRoute[2] ?? '', query, self);
    const reviewsRoute = /^pulls\/(\d+)\/reviews$/.exec(rest);
    if (reviewsRoute) {
      const fixture = pulls.get(Number(reviewsRoute[1]));
      return fixture ? commits.reviews(PullStateSchema.parse(fixture).reviews ?? [], query, self) : notFound;
    }

    const pullRoute = /^pulls\/(\d+)$/.exec(rest);
    if (pullRoute) return pull(Number(pullRoute[1]));
    const pullFilesRoute = /^pulls\/(\d+)\/files$/.exec(rest);
    if (pullFilesRoute) return pullFiles(Number(pullFilesRoute[1]), query, self);
    const gitCommitRoute = /^git\/commits\/([0-9a-f]{40})$/.exec(rest);
    if (gitCommitRoute) return commitObject(gitCommitRoute[1] ?? '');
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

  return {
    answer,
    addPull(fixture) {
      const number = nextPull++;
      pulls.set(number, { ...fixture, number });
      return number;
    },
    updatePull(number, state) {
      const fixture = pulls.get(number);
      if (!fixture) return false;
      pulls.set(number, { ...fixture, ...PullStateSchema.parse(state) });
      return true;
    },
    setChecks: (commit, checks) => commits.setChecks(commit, CommitChecksFixtureSchema.parse(checks)),
  };
}
