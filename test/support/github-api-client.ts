/**
 * @module test/support/github-api-client
 * The test side of the local GitHub API server: what global setup provides, and a per-test
 * scope (a path prefix on the API base URL) so tests running in parallel count their own
 * requests and inject their own failures.
 */
import { inject } from 'vitest';
import { z } from 'zod';
import type { CommitChecksFixture, NewPull, PullState } from './github-api-checks.ts';
import type { NewUser, Permission } from './github-api-users.ts';

export interface GitHubFixture {
  owner: string;
  repo: string;
  appId: string;
  /** The App's Client ID; the server accepts it as the JWT issuer too. */
  appClientId: string;
  /** The App's client secret, which user authorization (`/login/oauth/access_token`) checks. */
  appClientSecret: string;
  installationId: number;
  /** A personal access token the server accepts. */
  token: string;
  /** App private key, PKCS#8 PEM. */
  keyPkcs8: string;
  /** The same key as PKCS#1 PEM, the format GitHub hands out. */
  keyPkcs1: string;
  /** Commit ids in the fixture repository; `wide` is on a branch of its own, not on main. */
  commits: { head: string; first: string; wide: string };
  /** What git says about each of those commits, keyed by id. */
  commitFacts: Record<string, { commit: string; tree: string; parents: string[]; committedAt: string; authoredAt: string }>;
  /** An open pull request the server answers for: base at `commits.first`, head at `commits.head`. */
  pull: { number: number; baseRef: string; headRef: string; title: string; body: string; author: string; labels: string[] };
  /** A pull request from `commits.head` to `commits.wide` that adds `files` files. */
  widePull: { number: number; files: number };
  /** A pull request whose base and head are branches (starting at `commits.first` and `commits.head`) that tests push to. */
  movingPull: { number: number; baseRef: string; headRef: string };
  /**
   * A monorepo pull request (branches of their own): the base has an AGENTS.md per package under
   * `packages/`, a nested override in `packages/db/migrations`; the head changes files in three
   * packages and adds one in a directory the base lacks.
   */
  monorepoPull: { number: number; baseRef: string; headRef: string; base: string; head: string; files: number };
}

/** Directories of the fixture's rules chain, root first: `a/b/c/d/e` is five levels deep. */
export const CHAIN = ['', 'a', 'a/b', 'a/b/c', 'a/b/c/d', 'a/b/c/d/e'];
/** Skills under `.agents/skills/skill-01` ... `skill-30`. */
export const SKILL_COUNT = 30;

declare module 'vitest' {
  export interface ProvidedContext {
    githubApiPort: number;
    githubFixture: GitHubFixture;
  }
}

/** One scripted failure: the next `times` requests whose path contains `match` get `status`. */
export interface Fault {
  status: number;
  times: number;
  match?: string;
  retryAfter?: number;
  /** Send `x-ratelimit-remaining: 0` with a reset this many seconds ahead. */
  rateLimitResetIn?: number;
  message?: string;
  /** Take the request and never answer it (`status` is then unused). */
  stall?: boolean;
  /** Answer 200 at once, then drip the body a byte at a time and never finish it (`status` is then unused). */
  drip?: boolean;
}

export interface ScopeConfig {
  faults?: Fault[];
  /** Recursive tree answers with more entries than this come back `truncated`. */
  treeLimit?: number;
  tokenTtlSeconds?: number;
  /** Added to every answer, so that parallel requests overlap the way they do over a network. */
  latencyMs?: number;
  /** Rate-limit budget left at the start, per bucket (GitHub's `core` for REST, `graphql`); default 5000. */
  rateLimitRemaining?: { core?: number; graphql?: number };
  /** `legacy` plays a GitHub Enterprise Server whose schema lacks `Commit.file`. */
  graphqlSchema?: 'current' | 'legacy';
  /** Bytes of `Blob.text` before GitHub truncates it (default 512,000). */
  graphqlTextLimit?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  status: number;
  startedAt: number;
  endedAt: number;
  /** For a request that was never answered in full: whether the client has hung up on it. */
  abandoned?: boolean;
}

/** The JSON body of an accepted `POST /repos/{o}/{r}/check-runs`, with the repository it named. */
export interface RecordedCheckRun {
  owner: string;
  repo: string;
  body: Record<string, unknown>;
}

export interface ScopeStats {
  count: number;
  /** Longest chain of requests each started after the previous one ended: sequential round trips. */
  rounds: number;
  requests: RecordedRequest[];
  checkRuns: RecordedCheckRun[];
}

export interface ApiScope {
  baseUrl: string;
  configure(config: ScopeConfig): Promise<void>;
  stats(): Promise<ScopeStats>;
  count(match: string): Promise<number>;
  /** Revokes the installation tokens minted through this scope, as GitHub does on suspension. */
  revokeTokens(): Promise<void>;
}

export function githubFixture(): GitHubFixture {
  return inject('githubFixture');
}

/** A fresh scope, or (with `name`) a scope shared with whoever else uses that name. */
export function createApiScope(name: string = crypto.randomUUID()): ApiScope {
  const origin = `http://127.0.0.1:${inject('githubApiPort')}`;
  const stats = async (): Promise<ScopeStats> => {
    const response = await fetch(`${origin}/__stats/${name}`);
    return (await response.json()) as ScopeStats;
  };
  return {
    baseUrl: `${origin}/s/${name}`,
    async configure(config) {
      const response = await fetch(`${origin}/__control/${name}`, { method: 'POST', body: JSON.stringify(config) });
      if (!response.ok) throw new Error(`control endpoint answered ${response.status}`);
      await response.body?.cancel();
    },
    stats,
    async revokeTokens() {
      const response = await fetch(`${origin}/__revoke/${name}`, { method: 'POST' });
      if (!response.ok) throw new Error(`revoke endpoint answered ${response.status}`);
      await response.body?.cancel();
    },
    async count(match) {
      return (await stats()).requests.filter((request) => request.path.includes(match)).length;
    },
  };
}

/**
 * Commits file changes (text, or null to delete) onto a branch of the served repository; returns
 * the new commit. A branch that does not exist yet is made at `from` (a branch or commit) first.
 */
export async function pushToBranch(branch: string, files: Record<string, string | null>, options: { from?: string } = {}): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${inject('githubApiPort')}/__git/commit`, { method: 'POST', body: JSON.stringify({ branch, files, ...options }) });
  if (!response.ok) throw new Error(`branch commit answered ${response.status}: ${await response.text()}`);
  return z.object({ head: z.string() }).parse(await response.json()).head;
}

async function control(path: string, body: unknown): Promise<Response> {
  const response = await fetch(`http://127.0.0.1:${inject('githubApiPort')}${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** A pull request the served repository has from now on (between branches a test pushes to); returns its number. */
export async function openPullRequest(pull: NewPull): Promise<number> {
  return z.object({ number: z.number().int() }).parse(await (await control('/__github/pulls', pull)).json()).number;
}

/** Closes, merges, marks or reviews a pull request (made with openPullRequest, or one of the fixture's). */
export async function updatePullRequest(number: number, state: PullState): Promise<void> {
  await (await control(`/__github/pulls/${number}`, state)).body?.cancel();
}

/** What GitHub answers for a commit's check runs and combined status from now on. */
export async function setCommitChecks(commit: string, checks: CommitChecksFixture): Promise<void> {
  await (await control(`/__github/checks/${commit}`, checks)).body?.cancel();
}

/** A GitHub user of this test's own (a login no other test uses): what they may do on which `owner/name`. */
export async function createGitHubUser(user: NewUser): Promise<{ id: number; login: string }> {
  return z.object({ id: z.number().int(), login: z.string() }).parse(await (await control('/__github/users', user)).json());
}

/** Changes what a user may do on repositories from now on, as an organisation owner would on GitHub. */
export async function setGitHubAccess(login: string, access: Record<string, Permission>): Promise<void> {
  await (await control(`/__github/users/${login}/access`, access)).body?.cancel();
}

/** Revokes every token of the user's authorization of the App, as revoking it in GitHub's settings does. */
export async function revokeGitHubUser(login: string): Promise<void> {
  await (await control(`/__github/users/${login}/revoke`, {})).body?.cancel();
}

/** GitHub fails the user's next `times` reads (their repository permissions, their installations) with `status`. */
export async function failGitHubReads(login: string, status: number, times = 1): Promise<void> {
  await (await control(`/__github/users/${login}/fail`, { status, times })).body?.cancel();
}

/** The user's GitHub access tokens run out now (their refresh tokens still work), as 8 hours would. */
export async function expireGitHubTokens(login: string): Promise<void> {
  await (await control(`/__github/users/${login}/expire`, {})).body?.cancel();
}
