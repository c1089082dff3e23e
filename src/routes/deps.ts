/**
 * @module routes/deps
 * What routes get injected, so they stay thin and tests can swap the task store.
 */
import type { PullRequestIndex } from '../tasks/pull-request-index.ts';
import type { TaskService } from '../tasks/task-request.ts';

export interface RouteDeps {
  tasks(env: Env): TaskService;
  /** Which task a pull request's follow-ups go to (GitHub webhooks). */
  pullRequests(env: Env): PullRequestIndex;
  /** Milliseconds since the epoch; Slack timestamp checks use it. */
  now(): number;
}
