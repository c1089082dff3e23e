/**
 * @module checks/action
 * The shape of one action's check: a plan made from the task and the request alone (what will be
 * read, and the details as they stand before anything is read, which is the answer when the reads
 * do not finish), then the reads and the finding. Each action is one module.
 */
import type { CheckRequest } from './check-request.ts';
import type { CheckReads, CheckTask } from './check-task.ts';
import type { CheckSubject, Finding } from './verdict.ts';

export interface CheckPlan<D> {
  subject: CheckSubject;
  /** The details before anything was read: nulls where the answer goes. */
  details: D;
}

export interface ActionCheck<D> {
  plan(task: CheckTask, request: CheckRequest): CheckPlan<D>;
  read(plan: CheckPlan<D>, context: { task: CheckTask; request: CheckRequest; reads: CheckReads; signal: AbortSignal }): Promise<Finding<D>>;
}
