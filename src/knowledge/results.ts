/**
 * @module knowledge/results
 * What a knowledge scope's RPC methods take and answer, as zod schemas: routes parse every answer,
 * as they do the Task object's, so a corrupt answer is an error at the boundary.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { KnowledgeSchema } from '../context/knowledge.ts';

/** One tenant's knowledge about one repository (its canonical identity). */
export interface KnowledgeScopeName {
  tenant: string;
  repository: string;
}

export const LIST_STATUSES = ['active', 'retired', 'due'] as const;

/** `all`: every current version; `due`: active ones whose review date is on or before `dueBy`. */
export type ListFilter = { status: 'all' | 'active' | 'retired' } | { status: 'due'; dueBy: string };

/** Where a page ended: the sort key (creation time, or review date for `due`) and the id. */
export const PageKeySchema = lazySchema(() => z.strictObject({ sort: z.union([z.number().int(), z.iso.date()]), id: z.string() }));
export type PageKey = z.infer<typeof PageKeySchema>;

const NotFound = z.object({ status: z.literal('not-found') });
const Conflict = lazySchema(() => z.object({ status: z.literal('conflict'), message: z.string() }));

/** One version, with the version that replaced it when it is not current. */
export const KnowledgeViewSchema = lazySchema(() => KnowledgeSchema.unwrap().extend({ supersededBy: z.string().optional() }));
export type KnowledgeView = z.infer<typeof KnowledgeViewSchema>;

export const WriteResultSchema = lazySchema(() => z.discriminatedUnion('status', [z.object({ status: z.literal('ok'), knowledge: KnowledgeSchema }), NotFound, Conflict]));
export type WriteResult = z.infer<typeof WriteResultSchema>;

export const ReadResultSchema = lazySchema(() => z.discriminatedUnion('status', [z.object({ status: z.literal('ok'), knowledge: KnowledgeViewSchema }), NotFound]));
export type ReadResult = z.infer<typeof ReadResultSchema>;

export const VersionsResultSchema = lazySchema(() => z.discriminatedUnion('status', [z.object({ status: z.literal('ok'), versions: z.array(KnowledgeViewSchema) }), NotFound]));
export type VersionsResult = z.infer<typeof VersionsResultSchema>;

export const PageResultSchema = lazySchema(() => z.object({ items: z.array(KnowledgeSchema), next: PageKeySchema.nullable() }));
export type PageResult = z.infer<typeof PageResultSchema>;

export const ActiveResultSchema = z.array(KnowledgeSchema);
