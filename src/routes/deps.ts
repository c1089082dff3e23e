/**
 * @module routes/deps
 * What routes get injected, so they stay thin and tests can swap the task store.
 */
import type { TaskService } from '../tasks/task-request.ts';

export interface RouteDeps {
  tasks(env: Env): TaskService;
  /** Milliseconds since the epoch; Slack timestamp checks use it. */
  now(): number;
}
