/**
 * @module tasks/task-service
 * What the Worker needs from the task store: triggers and routes depend on this contract, not
 * on the Durable Object behind it (durable-task-service).
 */
import type { PullRequestKey } from './pull-request-index.ts';
import type { MailboxPost, TaskRequestInput, TaskStatus } from './task-request.ts';
import type { MailboxResult } from './task-results.ts';

export interface TaskCreateOptions {
  idempotencyKey?: string;
  /** Only with `idempotencyKey`, which names the delivery the entry records. */
  pullRequest?: PullRequestKey;
}

export interface TaskService {
  /**
   * Persists the task and schedules assembly. With an idempotency key (e.g. a webhook delivery
   * id) a repeated call returns the first task and schedules nothing new. With `pullRequest` as
   * well, the task lists itself in that pull request's index, under the key, from its first
   * attempt (durably: an index that cannot be reached is tried again). The trigger records it
   * there before answering (triggers/github/follow-ups); this repairs a record that failed.
   */
  create(request: TaskRequestInput, options?: TaskCreateOptions): Promise<{ id: string; status: TaskStatus; created: boolean }>;
  /** Appends a follow-up to a task's mailbox; `not-found` when the task is gone or another tenant's. */
  amend(taskId: string, tenant: string, post: MailboxPost): Promise<MailboxResult>;
}
