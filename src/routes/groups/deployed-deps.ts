/**
 * @module routes/groups/deployed-deps
 * This deployment's services, for the route groups the Worker loads: tasks, pull requests and
 * knowledge in their Durable Objects.
 */
import { durableKnowledgeService } from '../../knowledge/durable-knowledge-service.ts';
import { durablePullRequestIndex } from '../../tasks/durable-pull-request-index.ts';
import { durableTaskService } from '../../tasks/durable-task-service.ts';
import type { RouteDeps } from '../deps.ts';

export const deployedDeps: RouteDeps = { tasks: durableTaskService, pullRequests: durablePullRequestIndex, knowledge: durableKnowledgeService, now: () => Date.now() };
