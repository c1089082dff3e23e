/**
 * @module tasks/check-before
 * The check before an action as a service, callable without HTTP: the REST route
 * (`POST /tasks/:id/checks`) and the MCP tool (`check_before`) both call this with the task's
 * stub, the caller (auth/task-caller) and the input as it arrived, so the two surfaces validate, answer and
 * record alike. A bad input is `invalid` naming the field; nothing is read or recorded for it.
 *
 * @example
 * const answer = await checkBefore(taskStub(env, taskId), tenant, { action: 'report-ci' });
 * if (answer.status === 'ok' && answer.check.verdict !== 'go') …
 */
import type { TaskCaller } from '../auth/task-caller.ts';
import { CheckRequestSchema, type CheckRequestInput } from '../checks/check-request.ts';
import { fieldPath } from '../context/zod-issues.ts';
import { CheckResultRpcSchema, type CheckResultRpc } from './task-results.ts';

/** What answers a check: the Task object, through its stub. */
export interface CheckableTask {
  check(caller: TaskCaller, request: CheckRequestInput): Promise<unknown>;
}

export type CheckBeforeResult = CheckResultRpc | { status: 'invalid'; field: string; message: string };

export async function checkBefore(task: CheckableTask | undefined, caller: TaskCaller, input: unknown): Promise<CheckBeforeResult> {
  const parsed = CheckRequestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { status: 'invalid', field: issue ? fieldPath('', issue.path) : '(root)', message: issue?.message ?? 'invalid' };
  }
  if (!task) return { status: 'not-found' };
  // RPC answers are parsed like every other: a corrupt one is an error here, not a wrong verdict.
  return CheckResultRpcSchema.parse(await task.check(caller, parsed.data));
}
