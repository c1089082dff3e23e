/**
 * @module knowledge/scope
 * The knowledge scope of a tenant and a repository as a caller named it; a repository that names
 * no scope (a git URL that does not parse) is a reason, for the caller to report as bad input.
 */
import { canonicalRepository } from './repository.ts';
import type { KnowledgeScopeName } from './results.ts';

export type ScopeLookup = { ok: true; scope: KnowledgeScopeName } | { ok: false; reason: string };

export function knowledgeScope(tenant: string, repo: string, githubApiUrl: string): ScopeLookup {
  const canonical = canonicalRepository(repo, githubApiUrl);
  return canonical.ok ? { ok: true, scope: { tenant, repository: canonical.repository } } : canonical;
}
