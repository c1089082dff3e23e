/**
 * @module auth/repository-access
 * The one place that decides whether an identity may read (or change) a repository. Routes and
 * MCP tools ask here and never decide access themselves.
 *
 * - A machine host's API token (`api:<name>`) may use every repository this deployment can read,
 *   as before; other tenants' tasks reach it only through its grants (the Task object checks).
 * - A person may read a repository when GitHub, asked with their user access token, answers
 *   `GET /repos/{owner}/{repo}` with `permissions.pull`, and change its knowledge with
 *   `permissions.push` (REST "Get a repository": the permissions of the authenticated user; a
 *   repository they cannot see is a 404). The installation whose tasks they may then read is the
 *   App's installation on the repository's account among those GitHub lists for them
 *   (`GET /user/installations`: installations the user has explicit permission to access).
 *   A repository GitHub does not hold (another git host, a local one) is refused: GitHub cannot
 *   say, so nobody is let in on a guess.
 *
 * An answer is asked once and kept for {@link ACCESS_TTL_MS} (auth/access-cache); an answer GitHub
 * could not give is a refusal that says so (`unavailable`), never an allow, and is not kept.
 */
import * as z from 'zod';
import type { Config } from '../env.ts';
import { lazySchema } from '../lib/lazy-schema.ts';
import { githubWebRoot } from '../sources/github/location.ts';
import { repositoryIdentity, repositoryPolicy } from '../tasks/repository-identity.ts';
import { ACCESS_TTL_MS, isolateAccessCache, type AccessCache } from './access-cache.ts';
import { githubGet } from './github-user.ts';
import type { Identity } from './identity.ts';

export type Need = 'read' | 'write';

export type AccessDecision =
  /**
   * For a person: `fullName`, the repository as `owner/name` (however it was named), and
   * `installationId`, the App installation that reads it for them.
   */
  | { ok: true; fullName?: string; installationId?: number }
  | { ok: false; kind: AccessRefusal; message: string };

/**
 * `bad-name`: not a repository this deployment accepts; `not-github`: GitHub cannot decide it;
 * `denied`: GitHub says no; `signed-out`: GitHub no longer accepts the person's sign-in;
 * `unavailable`: GitHub gave no answer.
 */
export type AccessRefusal = 'bad-name' | 'not-github' | 'denied' | 'signed-out' | 'unavailable';

export interface AccessDeps {
  config: Config;
  fetch: typeof fetch;
  now: () => number;
  cache?: AccessCache;
}

const PermissionsSchema = lazySchema(() => z.object({ permissions: z.object({ pull: z.boolean(), push: z.boolean() }) }));
const InstallationsSchema = lazySchema(() => z.object({ installations: z.array(z.object({ id: z.number().int().positive(), account: z.object({ login: z.string() }).nullable() })) }));

/** How many pages of 100 installations are read at most; a person in more organisations is refused past them. */
const INSTALLATION_PAGES = 5;

/**
 * @example
 * const decision = await repositoryAccess(identity, 'acme/payments', 'read', { config, fetch, now: Date.now });
 * if (!decision.ok) throw accessError(decision);
 */
export async function repositoryAccess(identity: Identity, repo: string, need: Need, deps: AccessDeps): Promise<AccessDecision> {
  const named = repositoryIdentity(repo, repositoryPolicy(deps.config));
  if (!named.ok) return { ok: false, kind: 'bad-name', message: `repo: ${named.reason}` };
  if (identity.kind === 'token') return { ok: true };
  const github = githubName(named.identity, deps.config.GITHUB_API_URL);
  if (!github) return { ok: false, kind: 'not-github', message: `repo: ${repo.slice(0, 200)} is not a repository on this deployment's GitHub, so GitHub cannot say whether you may use it; a person signed in with GitHub may use GitHub repositories only` };
  const cache = deps.cache ?? isolateAccessCache;
  const key = `repo\n${deps.config.GITHUB_API_URL}\n${identity.person.userId}\n${github.owner}/${github.name}`;
  let permissions = cache.get<{ pull: boolean; push: boolean }>(key, deps.now());
  if (!permissions) {
    const answer = await githubGet(githubApi(deps), identity.person.github.accessToken, `/repos/${encodeURIComponent(github.owner)}/${encodeURIComponent(github.name)}`);
    if (!answer.ok && answer.kind === 'not-found') permissions = { pull: false, push: false };
    else if (!answer.ok) return refusal(answer.kind, github.fullName, answer.reason);
    else {
      const parsed = PermissionsSchema.safeParse(answer.value);
      if (!parsed.success) return { ok: false, kind: 'unavailable', message: `GitHub answered GET /repos/${github.fullName} without your permissions; try again` };
      permissions = parsed.data.permissions;
    }
    cache.set(key, permissions, deps.now() + ACCESS_TTL_MS);
  }
  if (!permissions.pull) return { ok: false, kind: 'denied', message: `GitHub says ${identity.person.login} cannot read ${github.fullName}` };
  if (need === 'write' && !permissions.push) return { ok: false, kind: 'denied', message: `GitHub says ${identity.person.login} can read ${github.fullName} but not push to it; changing its knowledge needs push access` };
  const installations = await personInstallations(identity, deps);
  if (!installations.ok) return installations;
  const installationId = installations.value.find((installation) => installation.account === github.owner)?.id;
  return installationId === undefined ? { ok: true, fullName: github.fullName } : { ok: true, fullName: github.fullName, installationId };
}

/**
 * The same decision for a repository known by its identity (`github:<host>/<owner>/<name>`, what a
 * knowledge object records): only GitHub's repositories are a person's to ask about.
 */
export async function identifiedRepositoryAccess(identity: Identity, repository: string, need: Need, deps: AccessDeps): Promise<AccessDecision> {
  if (identity.kind === 'token') return { ok: true };
  const github = githubName(repository, deps.config.GITHUB_API_URL);
  if (!github) return { ok: false, kind: 'not-github', message: `${repository.slice(0, 200)} is not a repository on this deployment's GitHub` };
  return repositoryAccess(identity, github.fullName, need, deps);
}

/** The App installations GitHub lists for the person (their tasks are readable repository by repository). */
export async function personInstallations(identity: Identity, deps: AccessDeps): Promise<{ ok: true; value: Array<{ id: number; account: string }> } | Extract<AccessDecision, { ok: false }>> {
  if (identity.kind !== 'person') return { ok: true, value: [] };
  const cache = deps.cache ?? isolateAccessCache;
  const key = `installations\n${deps.config.GITHUB_API_URL}\n${identity.person.userId}`;
  const cached = cache.get<Array<{ id: number; account: string }>>(key, deps.now());
  if (cached) return { ok: true, value: cached };
  const found: Array<{ id: number; account: string }> = [];
  for (let page = 1; page <= INSTALLATION_PAGES; page++) {
    const answer = await githubGet(githubApi(deps), identity.person.github.accessToken, `/user/installations?per_page=100&page=${page}`);
    if (!answer.ok) return refusal(answer.kind === 'not-found' ? 'unavailable' : answer.kind, 'your installations', answer.reason);
    const parsed = InstallationsSchema.safeParse(answer.value);
    if (!parsed.success) return { ok: false, kind: 'unavailable', message: 'GitHub answered GET /user/installations without installations; try again' };
    for (const installation of parsed.data.installations) found.push({ id: installation.id, account: installation.account?.login.toLowerCase() ?? '' });
    if (parsed.data.installations.length < 100) break;
  }
  cache.set(key, found, deps.now() + ACCESS_TTL_MS);
  return { ok: true, value: found };
}

/** `owner/name` of a repository identity on this deployment's GitHub, or undefined for any other. */
export function githubName(identity: string, githubApiUrl: string): { owner: string; name: string; fullName: string } | undefined {
  const prefix = `github:${new URL(githubWebRoot(githubApiUrl)).host}/`;
  if (!identity.startsWith(prefix)) return undefined;
  const [owner, name, ...rest] = identity.slice(prefix.length).split('/');
  if (!owner || !name || rest.length > 0) return undefined;
  return { owner, name, fullName: `${owner}/${name}` };
}

const githubApi = (deps: AccessDeps) => ({ apiUrl: deps.config.GITHUB_API_URL, fetch: deps.fetch });

function refusal(kind: 'refused' | 'unavailable', what: string, reason: string): Extract<AccessDecision, { ok: false }> {
  if (kind === 'refused') return { ok: false, kind: 'signed-out', message: reason };
  return { ok: false, kind: 'unavailable', message: `GitHub could not say whether you may use ${what}: ${reason}; nothing was allowed, try again` };
}
