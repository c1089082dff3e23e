/**
 * @module mcp/service-knowledge
 * The knowledge tools on the Worker: the knowledge service the REST routes call, in the caller's
 * tenant's scope of the repository (for a person, the repository's: knowledge/scope), with the
 * same access decisions (auth/repository-access: a person reads with read access and records with
 * push access); another tenant's id is "no knowledge" here as it is a 404 there. The author of
 * what a caller records is its tenant (a person's with their login).
 */
import { getConfig } from '../env.ts';
import { authorOf } from '../auth/identity.ts';
import { identifiedRepositoryAccess, repositoryAccess } from '../auth/repository-access.ts';
import { accessDeps } from '../auth/task-access.ts';
import { decodeCursor, encodeCursor } from '../knowledge/cursor.ts';
import type { ListFilter } from '../knowledge/results.ts';
import { DUE_WITHIN_DAYS } from '../knowledge/review.ts';
import { knowledgeScope, knowledgeTenant } from '../knowledge/scope.ts';
import { addDays, utcDate } from '../lib/utc-date.ts';
import { repositoryPolicy } from '../tasks/repository-identity.ts';
import { knowledgeAnswer, recallAnswer } from './answers.ts';
import { refusal, type GroundworkBackend } from './backend.ts';
import type { ServiceContext } from './service-tasks.ts';

type KnowledgeTools = Pick<GroundworkBackend, 'today' | 'remember' | 'recall' | 'retireKnowledge'>;

export function serviceKnowledgeTools(ctx: ServiceContext): KnowledgeTools {
  const config = getConfig(ctx.env);
  const today = () => utcDate(ctx.deps.now());
  const knowledge = () => ctx.deps.knowledge(ctx.env);
  return {
    today,
    async remember({ repo, ...draft }) {
      const found = knowledgeScope(ctx.tenant, repo, repositoryPolicy(config));
      if (!found.ok) return refusal(`repo: ${found.reason}`);
      const access = await repositoryAccess(ctx.identity, repo, 'write', accessDeps(ctx.env));
      if (!access.ok) return refusal(access.message, { status: access.kind });
      const result = await knowledge().create(found.scope, { ...draft, author: authorOf(ctx.identity) });
      if (result.status !== 'ok') return refusal(result.status === 'conflict' ? result.message : `no knowledge scope for ${repo}`);
      return knowledgeAnswer('recorded', result.knowledge);
    },
    async recall(args) {
      const found = knowledgeScope(ctx.tenant, args.repo, repositoryPolicy(config));
      if (!found.ok) return refusal(`repo: ${found.reason}`);
      const access = await repositoryAccess(ctx.identity, args.repo, 'read', accessDeps(ctx.env));
      if (!access.ok) return refusal(access.message, { status: access.kind });
      const status = args.status ?? 'all';
      const after = args.cursor === undefined ? undefined : decodeCursor(status, args.cursor);
      if (after && !after.ok) return refusal(`cursor: ${after.reason}`);
      const filter: ListFilter = status === 'due' ? { status, dueBy: addDays(today(), DUE_WITHIN_DAYS) } : { status };
      const page = await knowledge().list(found.scope, filter, after?.after ?? null, args.limit);
      return recallAnswer(args.repo, page.items, page.next ? encodeCursor(status, page.next) : null);
    },
    async retireKnowledge({ id, reason }) {
      const tenant = knowledgeTenant(ctx.tenant);
      const current = await knowledge().read(tenant, id);
      if (current.status === 'not-found') return refusal(`id: no knowledge ${id} for this token`);
      const access = await identifiedRepositoryAccess(ctx.identity, current.knowledge.repository, 'write', accessDeps(ctx.env));
      if (!access.ok && (access.kind === 'signed-out' || access.kind === 'unavailable')) return refusal(access.message, { status: access.kind });
      if (!access.ok) {
        // As the REST route: a repository they can read says push access is missing; any other is no knowledge at all.
        const reads = await identifiedRepositoryAccess(ctx.identity, current.knowledge.repository, 'read', accessDeps(ctx.env));
        return refusal(reads.ok ? `id: ${access.message}` : `id: no knowledge ${id} for this token`, { status: 'forbidden' });
      }
      const result = await knowledge().revise(tenant, id, { kind: 'retire', author: authorOf(ctx.identity), reason });
      if (result.status === 'not-found') return refusal(`id: no knowledge ${id} for this token`);
      if (result.status === 'conflict') return refusal(`id: ${result.message}`);
      return knowledgeAnswer('retired', result.knowledge);
    },
  };
}
