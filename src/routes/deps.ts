/**
 * @module routes/deps
 * What routes get injected, so they stay thin and tests can swap the task and knowledge stores.
 */
import type { AgentCatalog } from '../context/agent-catalog.ts';
import type { KnowledgeService } from '../knowledge/knowledge-service.ts';
import type { PullRequestIndex } from '../tasks/pull-request-index.ts';
import type { TaskService } from '../tasks/task-service.ts';

export interface RouteDeps {
  tasks(env: Env): TaskService;
  /** Which task a pull request's follow-ups go to (GitHub webhooks). */
  pullRequests(env: Env): PullRequestIndex;
  knowledge(env: Env): KnowledgeService;
  /** Milliseconds since the epoch; Slack timestamp checks use it. */
  now(): number;
  /** The agents a task may name; by default this deployment's (agents.json over the built-ins). */
  agents?(): AgentCatalog;
}
