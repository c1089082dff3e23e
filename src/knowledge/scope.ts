/**
 * @module knowledge/scope
 * The knowledge scope of a tenant and a repository as a caller named it: one scope per tenant
 * and repository identity (see `tasks/repository-identity`). A name that is no repository this
 * deployment accepts names no scope: a reason, for the caller to report as bad input (`repo`).
 *
 * On GitHub repositories where GitHub decides who may do what, the scope is the repository's,
 * shared: people signed in with GitHub (`github-user:<id>`, who read it with read access and
 * change it with push access, auth/repository-access) and the App installations' tasks
 * (`github:<installation>`, whose review tasks it serves) all use the tenant `github-access`. An
 * API token's or a Slack team's knowledge stays its own.
 */
import { repositoryIdentity, type RepositoryPolicy } from '../tasks/repository-identity.ts';
import type { KnowledgeScopeName } from './results.ts';

export type ScopeLookup = { ok: true; scope: KnowledgeScopeName } | { ok: false; reason: string };

/** The tenant of the knowledge scopes that GitHub's access decides. */
export const GITHUB_ACCESS_TENANT = 'github-access';

/** Whose knowledge a tenant reads and writes: its own, or, decided by GitHub, the repository's. */
export function knowledgeTenant(tenant: string): string {
  return /^github-user:|^github:[1-9][0-9]*$/.test(tenant) ? GITHUB_ACCESS_TENANT : tenant;
}

export function knowledgeScope(tenant: string, repo: string, policy: RepositoryPolicy): ScopeLookup {
  const named = repositoryIdentity(repo, policy);
  return named.ok ? { ok: true, scope: { tenant: knowledgeTenant(tenant), repository: named.identity } } : named;
}
