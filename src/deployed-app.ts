/**
 * @module deployed-app
 * The Hono app with this deployment's services: tasks, pull requests and knowledge in their
 * Durable Objects. The entry (index.ts) loads this module on the first request an isolate serves.
 */
import { buildApp } from './app.ts';
import { durablePullRequestIndex } from './tasks/durable-pull-request-index.ts';
import { durableKnowledgeService } from './knowledge/durable-knowledge-service.ts';
import { durableTaskService } from './tasks/durable-task-service.ts';

export const app = buildApp({ tasks: durableTaskService, pullRequests: durablePullRequestIndex, knowledge: durableKnowledgeService, now: () => Date.now() });
