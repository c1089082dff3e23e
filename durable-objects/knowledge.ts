/**
 * @module durable-objects/knowledge
 * One Durable Object per knowledge scope: one tenant's knowledge about one repository, so no
 * query can reach another tenant's by construction. The Worker addresses a scope by name
 * (tenant + canonical repository) and a single object by its id, which embeds the scope's object
 * id; either way every method checks the caller's tenant against the scope it stores and answers
 * `not-found` for anyone else, so a crafted id never reaches another tenant's knowledge.
 *
 * Versions are immutable rows: an edit or a retirement writes a new version that supersedes the
 * current one, in one synchronous transaction, so two concurrent edits of one version cannot both
 * succeed (the second finds it superseded and gets a conflict).
 */
import { DurableObject } from 'cloudflare:workers';
import { KnowledgeSchema, type Knowledge } from '../src/context/knowledge.ts';
import { toHex } from '../src/lib/sha256.ts';
import { KnowledgeChangeSchema, KnowledgeDraftSchema, type KnowledgeChange, type KnowledgeDraft } from '../src/knowledge/input.ts';
import { nextVersion } from '../src/knowledge/next-version.ts';
import type { KnowledgeScopeName, KnowledgeView, ListFilter, PageKey, PageResult, ReadResult, VersionsResult, WriteResult } from '../src/knowledge/results.ts';
import { hasSchema, migrateKnowledge } from './knowledge-schema.ts';
import { KnowledgeStore, type StoredVersion } from './knowledge-store.ts';

/** Active objects one scope may hold; every task's memory reads them all in one call. */
export const MAX_ACTIVE_PER_SCOPE = 2_000;

export class KnowledgeScope extends DurableObject<Env> {
  readonly #store: KnowledgeStore;
  /**
   * The active objects as last read, for the memory provider's reads (one per task): parsing
   * every row again costs far more than the read. Valid while the store's write generation is
   * the one it was read at.
   */
  #active: { generation: number; objects: Knowledge[] } | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new KnowledgeStore(ctx.storage.sql);
    void ctx.blockConcurrencyWhile(async () => {
      if (hasSchema(ctx.storage.sql)) migrateKnowledge(ctx.storage.sql);
    });
  }

  async create(scope: KnowledgeScopeName, draft: KnowledgeDraft): Promise<WriteResult> {
    const input = KnowledgeDraftSchema.parse(draft);
    this.#claim(scope);
    if (this.#store.countActive() >= MAX_ACTIVE_PER_SCOPE) {
      return { status: 'conflict', message: `${scope.repository} already holds ${MAX_ACTIVE_PER_SCOPE} active knowledge objects; retire some first` };
    }
    const createdAt = this.#nextTime();
    const knowledge = KnowledgeSchema.parse({ ...input, id: this.#newId(), repository: scope.repository, createdAt: new Date(createdAt).toISOString(), status: 'active', version: 1 });
    this.#store.insert(knowledge, createdAt, knowledge.id);
    return { status: 'ok', knowledge };
  }

  async list(scope: KnowledgeScopeName, filter: ListFilter, after: PageKey | null, limit: number): Promise<PageResult> {
    if (!this.#holds(scope)) return { items: [], next: null };
    const rows = this.#store.page(filter, after ?? undefined, limit);
    const page = rows.slice(0, limit);
    return { items: page.map((row) => row.knowledge), next: rows.length > limit ? (page[page.length - 1]?.key ?? null) : null };
  }

  /** What the memory provider reads: every active current version, in one call. */
  async active(scope: KnowledgeScopeName): Promise<Knowledge[]> {
    if (!this.#holds(scope)) return [];
    const generation = this.#store.generation();
    if (this.#active?.generation !== generation) this.#active = { generation, objects: this.#store.active() };
    return this.#active.objects;
  }

  async read(tenant: string, id: string): Promise<ReadResult> {
    const stored = this.#owned(tenant, id);
    return stored ? { status: 'ok', knowledge: view(stored) } : { status: 'not-found' };
  }

  async versions(tenant: string, id: string): Promise<VersionsResult> {
    const lineage = this.#owned(tenant, id) ? this.#store.lineageOf(id) : undefined;
    if (lineage === undefined) return { status: 'not-found' };
    const all = this.#store.versions(lineage);
    return { status: 'ok', versions: all.map((knowledge, i) => ({ ...knowledge, ...(all[i + 1] ? { supersededBy: all[i + 1]?.id } : {}) })) };
  }

  /** An edit or a retirement: a new version of the current one. */
  async revise(tenant: string, id: string, input: KnowledgeChange): Promise<WriteResult> {
    const change = KnowledgeChangeSchema.parse(input);
    const stored = this.#owned(tenant, id);
    if (!stored) return { status: 'not-found' };
    const { knowledge: current, supersededBy } = stored;
    if (supersededBy !== null) return { status: 'conflict', message: `${id} is not the current version: ${supersededBy} replaced it; change that one` };
    if (current.status === 'retired') return { status: 'conflict', message: `${id} is retired (${current.retiredReason ?? 'no reason'}); record new knowledge instead` };
    const createdAt = this.#nextTime();
    const next = nextVersion(current, change, { id: this.#newId(), createdAt: new Date(createdAt).toISOString() });
    const lineage = this.#store.lineageOf(current.id) ?? current.id;
    this.ctx.storage.transactionSync(() => {
      this.#store.insert(next, createdAt, lineage);
      this.#store.supersede(current.id, next.id);
    });
    return { status: 'ok', knowledge: next };
  }

  /** Creates the schema and records whose scope this is, the first time anything is written. */
  #claim(scope: KnowledgeScopeName): void {
    migrateKnowledge(this.ctx.storage.sql);
    this.#store.claimScope(scope);
    const stored = this.#store.scope();
    // Scopes are addressed by name, so a mismatch means a broken caller, never a tenant's input.
    if (stored?.tenant !== scope.tenant || stored.repository !== scope.repository) throw new Error('knowledge scope mismatch');
  }

  #holds(scope: KnowledgeScopeName): boolean {
    if (!hasSchema(this.ctx.storage.sql)) return false;
    const stored = this.#store.scope();
    return stored?.tenant === scope.tenant && stored.repository === scope.repository;
  }

  #owned(tenant: string, id: string): StoredVersion | undefined {
    if (!hasSchema(this.ctx.storage.sql) || this.#store.scope()?.tenant !== tenant) return undefined;
    return this.#store.version(id);
  }

  #newId(): string {
    return `k_${this.ctx.id.toString()}_${toHex(crypto.getRandomValues(new Uint8Array(8)))}`;
  }

  /** Creation times strictly increase in a scope, so versions and pages have one order. */
  #nextTime(): number {
    return Math.max(Date.now(), this.#store.latestCreatedAt() + 1);
  }
}

function view({ knowledge, supersededBy }: StoredVersion): KnowledgeView {
  return { ...knowledge, ...(supersededBy === null ? {} : { supersededBy }) };
}
