/**
 * @module http/grant-refusal
 * Grants (`TENANT_GRANTS`) are for reading only: a tenant that reaches another's task through a
 * grant may read it, and every change (a turn, the transcript, a follow-up, knowledge recorded
 * from the task) is a 403 saying so, for every route that changes anything through a task.
 */
import { ApiError } from './errors.ts';

export function grantedWriteRefused(taskId: string, owner: string, tenant: string): ApiError {
  return new ApiError('forbidden', `task ${taskId} belongs to ${owner}; ${tenant} may read it through a grant but not change it`);
}
