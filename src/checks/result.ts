/**
 * @module checks/result
 * Every check's answer, one schema per action: `{ action, verdict, checkedAt, subject, reasons,
 * details }`, the details being the action's own. The same shape is answered by
 * `POST /tasks/:id/checks`, recorded on the task (with its `id`, counting from 1) and printed by
 * `groundwork check --json`.
 *
 * @example
 * { id: 3, action: 'report-ci', verdict: 'stop', checkedAt: '2026-11-20T18:02:00.000Z',
 *   subject: { repository: 'github:github.com/acme/widgets', ref: 'fix-login', commit: '1a2b…', pullRequest: 7 },
 *   reasons: ['build failed', '1a2b3c4 is still the head of pull request #7'], details: { … } }
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { ApplyKnowledgeDetailsSchema, MergeDetailsSchema, PushDetailsSchema, ReportCiDetailsSchema } from './details.ts';
import { CheckSubjectSchema, ReasonsSchema, VERDICTS } from './verdict.ts';

const common = { verdict: z.enum(VERDICTS), checkedAt: z.iso.datetime(), subject: CheckSubjectSchema, reasons: ReasonsSchema };

export const CheckResultSchema = lazySchema(() => z.discriminatedUnion('action', [
  z.object({ action: z.literal('push'), ...common, details: PushDetailsSchema }),
  z.object({ action: z.literal('report-ci'), ...common, details: ReportCiDetailsSchema }),
  z.object({ action: z.literal('merge'), ...common, details: MergeDetailsSchema }),
  z.object({ action: z.literal('apply-knowledge'), ...common, details: ApplyKnowledgeDetailsSchema }),
]));
export type CheckResult = z.infer<typeof CheckResultSchema>;

/** A check as the task keeps it: its answer and its number on the task. */
export const CheckRecordSchema = lazySchema(() => z.intersection(z.object({ id: z.number().int().positive() }), CheckResultSchema));
export type CheckRecord = z.infer<typeof CheckRecordSchema>;

/** What `GET /tasks/:id` shows of a record: everything but the details. */
export const CheckEntrySchema = lazySchema(() => z.object({
  id: z.number().int().positive(),
  action: z.enum(['push', 'report-ci', 'merge', 'apply-knowledge']),
  ...common,
}));
export type CheckEntry = z.infer<typeof CheckEntrySchema>;

/** The task's checks: how many were made, how many of the oldest were dropped, and the rest, newest first. */
export const CheckLogSchema = lazySchema(() => z.object({
  count: z.number().int().nonnegative(),
  dropped: z.number().int().nonnegative(),
  recent: z.array(CheckEntrySchema),
}));
export type CheckLog = z.infer<typeof CheckLogSchema>;
