/**
 * @module mcp/service-knowledge
 * The knowledge tools on the Worker: the knowledge service the REST routes call, in the caller's
 * tenant's scope of the repository; another tenant's id is "no knowledge" here as it is a 404
 * there. The author of what a token records is its tenant.
 */
import { getConfig } from '../env.ts';
import { decodeCursor, encodeCursor } from '../knowledge/cursor.ts';
import type { ListFilter } from '../knowledge/results.ts';
import { DUE_WITHIN_DAYS } from '../knowledge/review.ts';
import { knowledgeScope } from '../knowledge/scope.ts';
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
      const result = await knowledge().create(found.scope, { ...draft, author: ctx.tenant });
      if (result.status !== 'ok') return refusal(result.status === 'conflict' ? result.message : `no knowledge scope for ${repo}`);
      return knowledgeAnswer('recorded', result.knowledge);
    },
    async recall(args) {
      const found = knowledgeScope(ctx.tenant, args.repo, repositoryPolicy(config));
      if (!found.ok) return refusal(`repo: ${found.reason}`);
      const status = args.status ?? 'all';
      const after = args.cursor === undefined ? undefined : decodeCursor(status, args.cursor);
      if (after && !after.ok) return refusal(`cursor: ${after.reason}`);
      const filter: ListFilter = status === 'due' ? { status, dueBy: addDays(today(), DUE_WITHIN_DAYS) } : { status };
      const page = await knowledge().list(found.scope, filter, after?.after ?? null, args.limit);
      return recallAnswer(args.repo, page.items, page.next ? encodeCursor(status, page.next) : null);
    },
    async retireKnowledge({ id, reason }) {
      const result = await knowledge().revise(ctx.tenant, id, { kind: 'retire', author: ctx.tenant, reason });
      if (result.status === 'not-found') return refusal(`id: no knowledge ${id} for this token`);
      if (result.status === 'conflict') return refusal(`id: ${result.message}`);
      return knowledgeAnswer('retired', result.knowledge);
    },
  };
}
