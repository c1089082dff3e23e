/**
 * @module index
 * Worker entry: the Hono app as the default export, plus the Durable Object classes wrangler binds.
 */
import { buildApp } from './app.ts';
import { durableKnowledgeService } from './knowledge/durable-knowledge-service.ts';
import { durableTaskService } from './tasks/durable-task-service.ts';

export { TaskIndex } from '../durable-objects/task-index.ts';
export { TaskObject } from '../durable-objects/task.ts';
export { KnowledgeScope } from '../durable-objects/knowledge.ts';

const app = buildApp({ tasks: durableTaskService, knowledge: durableKnowledgeService, now: () => Date.now() });

export default app satisfies ExportedHandler<Env>;
