/**
 * @module tasks/repository-identity
 * The one reading of a repository name, for every way in that takes one: a task (`POST /tasks`),
 * the knowledge routes, the Slack commands, the Task object finding its task's knowledge. It
 * accepts exactly the forms a task accepts and gives each repository one identity:
 *
 * - `owner/name`, checked as GitHub checks names: `github:<host>/<owner>/<name>`, lowercased
 *   (GitHub compares names case-insensitively), on the host this deployment reads through;
 * - an http(s) git URL, on a host `GIT_ALLOWED_HOSTS` allows: the URL without credentials,
 *   query, fragment, trailing slash or `.git`; one under this deployment's GitHub web root that
 *   names `owner/name` is that GitHub repository;
 * - `file:///path`, only where this instance serves that path (`LOCAL_REPOSITORIES`, which
 *   `groundwork run` sets): the URL as served, so two local repositories never share one.
 *
 * Anything else is refused with the reason, for the caller to answer as a 400 naming `repo`.
 *
 * @example
 * const policy = { githubApiUrl: 'https://api.github.com', gitAllowedHosts: [], localRepositories: {} };
 * repositoryIdentity('Acme/Widgets', policy)                              // { ok: true, identity: 'github:github.com/acme/widgets' }
 * repositoryIdentity('https://x:tok@github.com/acme/widgets.git', policy) // { ok: true, identity: 'github:github.com/acme/widgets' }
 * repositoryIdentity('file:///src/app', policy)                           // { ok: false, reason: 'file:/// repositories are …' }
 */
import { parseRemoteUrl } from '../sources/git/remote-url.ts';
import { githubLocation, githubWebRoot } from '../sources/github/location.ts';
import { parseFullName } from '../sources/github/repo-name.ts';
import { hostAllowed, isGitUrl, isLocalRepo, RepoSchema } from './task-request.ts';

/** What the deployment allows, from its config. */
export interface RepositoryPolicy {
  /** `GITHUB_API_URL`: which GitHub `owner/name` lives on. */
  githubApiUrl: string;
  /** `GIT_ALLOWED_HOSTS`; empty allows every host. */
  gitAllowedHosts: readonly string[];
  /** `LOCAL_REPOSITORIES`: the `file:///` repositories this instance serves. */
  localRepositories: Readonly<Record<string, string>>;
}

export type RepositoryIdentity = { ok: true; identity: string } | { ok: false; reason: string };

export const LOCAL_ONLY = 'file:/// repositories are readable only on the local instance `groundwork run` starts for them';

/** The policy of a deployment's config. */
export function repositoryPolicy(config: { GITHUB_API_URL: string; GIT_ALLOWED_HOSTS: readonly string[]; LOCAL_REPOSITORIES: Readonly<Record<string, string>> }): RepositoryPolicy {
  return { githubApiUrl: config.GITHUB_API_URL, gitAllowedHosts: config.GIT_ALLOWED_HOSTS, localRepositories: config.LOCAL_REPOSITORIES };
}

export function repositoryIdentity(given: string, policy: RepositoryPolicy): RepositoryIdentity {
  // The schema a task's `repo` is parsed with, so nothing a task would refuse names a repository here.
  const shape = RepoSchema.safeParse(given);
  if (!shape.success) return { ok: false, reason: shape.error.issues[0]?.message ?? 'is not a repository' };
  const repo = shape.data;
  if (isLocalRepo(repo)) return Object.hasOwn(policy.localRepositories, repo) ? { ok: true, identity: repo } : { ok: false, reason: LOCAL_ONLY };
  if (!isGitUrl(repo)) {
    const name = parseFullName(repo);
    return name.ok ? { ok: true, identity: githubIdentity(policy.githubApiUrl, name.owner, name.name) } : { ok: false, reason: name.reason };
  }
  const parsed = parseRemoteUrl(repo);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  const host = new URL(parsed.identity).hostname;
  if (!hostAllowed(host, policy.gitAllowedHosts)) return { ok: false, reason: `${host} is not an allowed git host on this deployment` };
  const identity = parsed.identity.replace(/\.git$/i, '');
  const root = githubWebRoot(policy.githubApiUrl);
  if (identity.toLowerCase().startsWith(`${root.toLowerCase()}/`)) {
    const name = parseFullName(identity.slice(root.length + 1));
    if (name.ok) return { ok: true, identity: githubIdentity(policy.githubApiUrl, name.owner, name.name) };
  }
  return { ok: true, identity };
}

function githubIdentity(githubApiUrl: string, owner: string, name: string): string {
  return githubLocation(githubApiUrl, owner.toLowerCase(), name.toLowerCase()).repository;
}
