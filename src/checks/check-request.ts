/**
 * @module checks/check-request
 * What a host asks before a consequential action (`POST /tasks/:id/checks`, the MCP tool
 * `check_before`): which action, and optionally the commit it built on or would report and the
 * branch it would push. One schema for every way in, so each refuses the same input with the
 * same message naming the field.
 *
 * @example
 * CheckRequestSchema.parse({ action: 'push', branch: 'fix-login', commit: '1a2b…' })
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { isValidRefName } from '../sources/git/ref-name.ts';
import { COMMIT_SHA } from '../sources/snapshot.ts';

export const CHECK_ACTIONS = ['push', 'report-ci', 'merge', 'apply-knowledge'] as const;
export type CheckAction = (typeof CHECK_ACTIONS)[number];

/** Which fields each action reads; any other is refused rather than ignored. */
const FIELDS: Record<CheckAction, ReadonlySet<string>> = {
  push: new Set(['commit', 'branch', 'stopIfBaseMoved']),
  'report-ci': new Set(['commit', 'branch']),
  merge: new Set(['commit']),
  'apply-knowledge': new Set(),
};

const BranchSchema = lazySchema(() => z
  .string()
  .min(1)
  .max(256)
  .refine(isValidRefName, 'must be a branch name')
  .refine((name) => !COMMIT_SHA.test(name), 'must be a branch name, not a commit (give a commit as commit)')
  .refine((name) => !name.startsWith('refs/'), 'must be a branch name without refs/heads/'));

export const CheckRequestSchema = lazySchema(() => z
  .strictObject({
    action: z.enum(CHECK_ACTIONS, { error: `must be one of ${CHECK_ACTIONS.join(', ')}` }),
    /** push: the commit the host built on; report-ci: the commit it would report CI for; merge: the head it reviewed. */
    commit: z.string().regex(COMMIT_SHA, 'must be a 40-hex commit').optional(),
    /** push: the branch it would push; report-ci: the branch whose head the commit must be (tasks not about a pull request). */
    branch: BranchSchema.optional(),
    /** push, for a pull request: say `stop` when its base branch moved too (by default that is only reported). */
    stopIfBaseMoved: z.boolean().optional(),
  })
  .superRefine((request, ctx) => {
    const allowed = FIELDS[request.action];
    for (const field of ['commit', 'branch', 'stopIfBaseMoved'] as const) {
      if (request[field] !== undefined && !allowed.has(field)) ctx.addIssue({ code: 'custom', path: [field], message: `does not apply to ${request.action}` });
    }
  }));
export type CheckRequest = z.output<typeof CheckRequestSchema>;
export type CheckRequestInput = z.input<typeof CheckRequestSchema>;

/** Why a check cannot be asked of this task at all (a client's mistake, not a finding), or undefined. */
export function unfitFor(task: { pullRequest?: unknown }, request: Pick<CheckRequest, 'action'>): string | undefined {
  if (request.action === 'merge' && !task.pullRequest) return 'merge: this task is not about a pull request; there is nothing to merge';
  return undefined;
}
