/**
 * @module knowledge/scope
 * The knowledge scope of a tenant and a repository as a caller named it: one scope per tenant
 * and repository identity (see `tasks/repository-identity`). A name that is no repository this
 * deployment accepts names no scope: a reason, for the caller to report as bad input (`repo`).
 */
import { repositoryIdentity, type RepositoryPolicy } from '../tasks/repository-identity.ts';
import type { KnowledgeScopeName } from './results.ts';

export type ScopeLookup = { ok: true; scope: KnowledgeScopeName } | { ok: false; reason: string };

export function knowledgeScope(tenant: string, repo: string, policy: RepositoryPolicy): ScopeLookup {
  const named = repositoryIdentity(repo, policy);
  return named.ok ? { ok: true, scope: { tenant, repository: named.identity } } : named;
}
