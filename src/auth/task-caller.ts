/**
 * @module auth/task-caller
 * Who a Task object answers, and what it lets them do. The object enforces a decision made before
 * the call (auth/task-access asks auth/repository-access); it never asks GitHub itself.
 *
 * - A tenant's name (`api:acme`, `github:42`, `slack:T1`): its own tasks, and to read, the tasks
 *   of the tenants it was granted (`TENANT_GRANTS`).
 * - A person with the repository GitHub said they may read (`reads`, the task's `repo` exactly as
 *   the object answered it): to read, their own tasks and the App installations' tasks on that
 *   repository (a pull request's review tasks); to change, their own only. A person's tenant
 *   without that confirmation reads and changes nothing: losing access on GitHub closes their own
 *   tasks too.
 */
import { mayRead, readableTenants, type TenantGrants } from '../tasks/tenant-grants.ts';

export type TaskCaller = string | { tenant: string; reads: string };

const PERSON = /^github-user:/;
/** A GitHub App installation's tenant: the tasks its webhooks started. */
const INSTALLATION = /^github:[1-9][0-9]*$/;

export function callerTenant(caller: TaskCaller): string {
  return typeof caller === 'string' ? caller : caller.tenant;
}

/** Whether `caller` may read a task owned by `owner` on `repo` (as stored). */
export function mayReadTask(grants: TenantGrants, caller: TaskCaller, task: { tenant: string; repo: string }): boolean {
  if (typeof caller === 'string') return !PERSON.test(caller) && mayRead(grants, caller, task.tenant);
  if (!PERSON.test(caller.tenant) || caller.reads !== task.repo) return false;
  return task.tenant === caller.tenant || INSTALLATION.test(task.tenant);
}

/** Whether `caller` may change a task (turns, transcript, mailbox, focus, usage). */
export function ownsTask(caller: TaskCaller, task: { tenant: string; repo: string }): boolean {
  if (typeof caller === 'string') return !PERSON.test(caller) && caller === task.tenant;
  return PERSON.test(caller.tenant) && caller.reads === task.repo && caller.tenant === task.tenant;
}

/** Whether a refused change may be a task `caller` reads but does not own (a 403, not a 404). */
export function readsOthersTasks(grants: TenantGrants, caller: TaskCaller): boolean {
  return typeof caller !== 'string' || readableTenants(grants, caller).length > 1;
}
