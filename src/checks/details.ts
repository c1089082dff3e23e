/**
 * @module checks/details
 * What each check before an action reports beside its verdict, as stored and answered (one
 * schema per action), apart from the checks that read it: the routes and the Task object's reads
 * parse a check's answer without loading the reads (checks/push, report-ci, merge,
 * apply-knowledge).
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { Sha } from './verdict.ts';

export const CiCheckSchema = lazySchema(() => z.object({
  kind: z.enum(['check-run', 'status']),
  name: z.string(),
  result: z.enum(['passed', 'pending', 'failed']),
  /** GitHub's words: a run's status and conclusion (`completed/failure`), a status's state. */
  state: z.string(),
  description: z.string().optional(),
  app: z.string().optional(),
  url: z.string().optional(),
}));

export type CiCheck = z.infer<typeof CiCheckSchema>;

export const CiSummarySchema = lazySchema(() => z.object({
  commit: z.string(),
  passed: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** False when GitHub had more than was read. */
  complete: z.boolean(),
  checks: z.array(CiCheckSchema),
  /** Checks read but not listed in `checks`. */
  unlisted: z.number().int().nonnegative(),
}));

export type CiSummary = z.infer<typeof CiSummarySchema>;

export const KnowledgeCheckSchema = lazySchema(() => z.object({
  id: z.string(),
  kind: z.string(),
  verdict: z.enum(['holds', 'no-longer-holds', 'unverifiable']),
  /** In the store now: this version (`current`), replaced (`edited`, see `currentId`), `retired`, or gone (`missing`). */
  store: z.enum(['current', 'edited', 'retired', 'missing', 'unverifiable']),
  currentId: z.string().optional(),
  reviewBy: z.string().nullable(),
  reviewPassed: z.boolean().nullable(),
  source: z.object({
    path: z.string().optional(),
    revision: Sha.optional(),
    status: z.enum(['unchanged', 'changed', 'deleted', 'not-cited', 'unverifiable']),
    blob: Sha.nullable(),
    currentBlob: Sha.optional(),
    reason: z.string().optional(),
  }),
}));

export type KnowledgeCheck = z.infer<typeof KnowledgeCheckSchema>;

export const ApplyKnowledgeDetailsSchema = lazySchema(() => z.object({
  /** The ref re-resolved (what the task was pinned from) and where it points now. */
  ref: z.string(),
  current: Sha.nullable(),
  objects: z.array(KnowledgeCheckSchema),
  /** Rendered objects beyond the bound, not checked. */
  unchecked: z.number().int().nonnegative(),
}));

export type ApplyKnowledgeDetails = z.infer<typeof ApplyKnowledgeDetailsSchema>;

export const MergeDetailsSchema = lazySchema(() => z.object({
  number: z.number().int().positive(),
  /** The head the host reviewed (its `commit`, else the task's). */
  reviewed: Sha,
  state: z.enum(['open', 'closed', 'merged']).nullable(),
  draft: z.boolean().nullable(),
  currentHead: Sha.nullable(),
  mergeable: z.boolean().nullable(),
  mergeableState: z.string().nullable(),
  /** Reviewers by their latest approving or change-requesting review; null when they could not be read. */
  reviews: z.object({ approved: z.array(z.string()), changesRequested: z.array(z.string()), complete: z.boolean() }).nullable(),
  ci: CiSummarySchema.nullable(),
}));

export type MergeDetails = z.infer<typeof MergeDetailsSchema>;

export const PushDetailsSchema = lazySchema(() => z.object({
  /** The branch compared; null for a pull request whose head branch the task does not know (its head is compared). */
  branch: z.string().nullable(),
  builtOn: Sha,
  /** Where the branch points now; null when it does not exist or could not be read. */
  remote: Sha.nullable(),
  exists: z.boolean().nullable(),
  moved: z.boolean().nullable(),
  pullRequest: z
    .object({
      number: z.number().int().positive(),
      state: z.enum(['open', 'closed', 'merged']).nullable(),
      currentHead: Sha.nullable(),
      /** The base the task was pinned from, the commit it was pinned at, and both now. */
      baseRef: z.string().nullable(),
      currentBaseRef: z.string().nullable(),
      base: Sha,
      currentBase: Sha.nullable(),
      baseMoved: z.boolean().nullable(),
    })
    .optional(),
}));

export type PushDetails = z.infer<typeof PushDetailsSchema>;

export const ReportCiDetailsSchema = lazySchema(() => z.object({
  commit: Sha,
  /** What the commit must still be the head of: a branch, or `pull request #7`. */
  headOf: z.string(),
  currentHead: Sha.nullable(),
  isHead: z.boolean().nullable(),
  /** Null when GitHub's checks could not be read (or the repository is not on GitHub). */
  ci: CiSummarySchema.nullable(),
}));

export type ReportCiDetails = z.infer<typeof ReportCiDetailsSchema>;
