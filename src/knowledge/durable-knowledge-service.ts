/**
 * @module knowledge/durable-knowledge-service
 * The KnowledgeService backed by one KnowledgeScope Durable Object per tenant and repository.
 * A scope is found by name; a single object by its id, which embeds its scope's object id, so
 * no global index is needed. Every answer is parsed at this boundary.
 */
import { KNOWLEDGE_ID, type KnowledgeReader } from '../context/knowledge.ts';
import type { KnowledgeService } from './knowledge-service.ts';
import { ActiveResultSchema, PageResultSchema, ReadResultSchema, VersionsResultSchema, WriteResultSchema, type KnowledgeScopeName } from './results.ts';

/** The name a scope's object is addressed by: tenant and repository, unambiguously joined. */
export function scopeObjectName(scope: KnowledgeScopeName): string {
  return JSON.stringify([scope.tenant, scope.repository]);
}

export function durableKnowledgeService(env: Env): KnowledgeService {
  const scopeStub = (scope: KnowledgeScopeName) => env.KNOWLEDGE.get(env.KNOWLEDGE.idFromName(scopeObjectName(scope)));
  return {
    create: async (scope, draft) => WriteResultSchema.parse(await scopeStub(scope).create(scope, draft)),
    list: async (scope, filter, after, limit) => PageResultSchema.parse(await scopeStub(scope).list(scope, filter, after, limit)),
    async read(tenant, id) {
      const stub = objectStub(env, id);
      return stub ? ReadResultSchema.parse(await stub.read(tenant, id)) : { status: 'not-found' };
    },
    async versions(tenant, id) {
      const stub = objectStub(env, id);
      return stub ? VersionsResultSchema.parse(await stub.versions(tenant, id)) : { status: 'not-found' };
    },
    async revise(tenant, id, change) {
      const stub = objectStub(env, id);
      return stub ? WriteResultSchema.parse(await stub.revise(tenant, id, change)) : { status: 'not-found' };
    },
    reader: (scope): KnowledgeReader => ({ active: async () => ActiveResultSchema.parse(await scopeStub(scope).active(scope)) }),
  };
}

/** The scope object a knowledge id names, or undefined when the id is not one of ours. */
function objectStub(env: Env, id: string) {
  const hex = KNOWLEDGE_ID.exec(id)?.[1];
  if (hex === undefined) return undefined;
  try {
    return env.KNOWLEDGE.get(env.KNOWLEDGE.idFromString(hex));
  } catch {
    return undefined;
  }
}
