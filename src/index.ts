/**
 * @module index
 * Worker entry: the Hono app as the default export, plus the Durable Object classes wrangler binds.
 */
import { buildApp } from './app.ts';
import { durablePullRequestIndex } from './tasks/durable-pull-request-index.ts';
import { durableKnowledgeService } from './knowledge/durable-knowledge-service.ts';
import { durableTaskService } from './tasks/durable-task-service.ts';

export { PullRequestTasks } from '../durable-objects/pull-request-tasks.ts';
export { TaskIndex } from '../durable-objects/task-index.ts';
export { TaskObject } from '../durable-objects/task.ts';
export { KnowledgeScope } from '../durable-objects/knowledge.ts';

const app = buildApp({ tasks: durableTaskService, pullRequests: durablePullRequestIndex, knowledge: durableKnowledgeService, now: () => Date.now() });

export default app satisfies ExportedHandler<Env>;
