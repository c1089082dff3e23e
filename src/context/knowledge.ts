/**
 * @module context/knowledge
 * Repository knowledge as the memory provider reads it: sourced, reviewable, retirable records
 * (playbooks, facts, decisions, task summaries), one scope per tenant and repository. The host
 * stores them (a Durable Object in the Worker) and hands providers a reader already scoped to the
 * task's tenant and repository, granted with `knowledge:read`; a provider never chooses a scope.
 *
 * @example
 * const objects = await request.knowledge?.active({ signal: request.signal });
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';

export const KNOWLEDGE_KINDS = ['playbook', 'fact', 'decision', 'task-summary'] as const;
export type KnowledgeKind = (typeof KNOWLEDGE_KINDS)[number];

export const KNOWLEDGE_STATUSES = ['active', 'retired'] as const;

export const MAX_STATEMENT_CHARS = 4_000;

/** `k_<64 hex: the scope's object id>_<16 hex>`: the id says which scope holds it. */
export const KNOWLEDGE_ID = /^k_([0-9a-f]{64})_([0-9a-f]{16})$/;

const ISO_DATE = z.iso.date();
const COMMIT = lazySchema(() => z.string().regex(/^[0-9a-f]{40}$/, 'must be a 40-hex commit'));

/** What supports a piece of knowledge. `path@revision` is what provenance checks compare. */
export const KnowledgeSourceSchema = lazySchema(() => z.strictObject({
  uri: z.string().min(1).max(2048),
  path: z.string().min(1).max(1024).optional(),
  revision: COMMIT.optional(),
}));
export type KnowledgeSource = z.infer<typeof KnowledgeSourceSchema>;

/** One version of one knowledge object, as stored and served. */
export const KnowledgeSchema = lazySchema(() => z.strictObject({
  id: z.string().regex(KNOWLEDGE_ID, 'must be a knowledge id'),
  /** Canonical repository identity, e.g. `github:github.com/acme/widgets`. */
  repository: z.string().min(1),
  kind: z.enum(KNOWLEDGE_KINDS),
  statement: z.string().min(1).max(MAX_STATEMENT_CHARS),
  /** Paths it applies to, normalised like a working directory; absent: the whole repository. */
  paths: z.array(z.string().min(1)).min(1).optional(),
  source: KnowledgeSourceSchema,
  author: z.string().min(1).max(200),
  createdAt: z.iso.datetime(),
  reviewBy: ISO_DATE,
  status: z.enum(KNOWLEDGE_STATUSES),
  retiredReason: z.string().min(1).optional(),
  version: z.number().int().positive(),
  /** The version this one replaced. */
  supersedes: z.string().regex(KNOWLEDGE_ID).optional(),
}));
export type Knowledge = z.infer<typeof KnowledgeSchema>;

/** Reads the knowledge of one scope. Made by the host, handed to providers granted `knowledge:read`. */
export interface KnowledgeReader {
  /** Every active current version in the scope, expired ones included (the provider names those). One call to the store. */
  active(options?: { signal?: AbortSignal }): Promise<Knowledge[]>;
}
