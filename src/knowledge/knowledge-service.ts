/**
 * @module knowledge/knowledge-service
 * What the Worker needs from the knowledge store; routes and triggers depend on this, not on the
 * Durable Object. Every method takes the caller's tenant: another tenant's id is `not-found`.
 */
import type { KnowledgeReader } from '../context/knowledge.ts';
import type { KnowledgeChange, KnowledgeDraft } from './input.ts';
import type { KnowledgeScopeName, ListFilter, PageKey, PageResult, ReadResult, VersionsResult, WriteResult } from './results.ts';

export interface KnowledgeService {
  create(scope: KnowledgeScopeName, draft: KnowledgeDraft): Promise<WriteResult>;
  /** One page of current versions; `next` is where the following page starts, or null. */
  list(scope: KnowledgeScopeName, filter: ListFilter, after: PageKey | null, limit: number): Promise<PageResult>;
  read(tenant: string, id: string): Promise<ReadResult>;
  versions(tenant: string, id: string): Promise<VersionsResult>;
  /** An edit or a retirement of the current version: a new version. */
  revise(tenant: string, id: string, change: KnowledgeChange): Promise<WriteResult>;
  /** The memory provider's view of one scope. */
  reader(scope: KnowledgeScopeName): KnowledgeReader;
}
