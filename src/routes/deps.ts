/**
 * @module routes/deps
 * What routes get injected, so they stay thin and tests can swap the task and knowledge stores.
 */
import type { KnowledgeService } from '../knowledge/knowledge-service.ts';
import type { TaskService } from '../tasks/task-request.ts';

export interface RouteDeps {
  tasks(env: Env): TaskService;
  knowledge(env: Env): KnowledgeService;
  /** Milliseconds since the epoch; Slack timestamp checks use it. */
  now(): number;
}
