/**
 * @module index
 * Worker entry: the Hono app as the default export, plus the Durable Object classes wrangler binds.
 */
import { buildApp } from './app.ts';
import { durableTaskService } from './tasks/durable-task-service.ts';

export { TaskIndex } from '../durable-objects/task-index.ts';
export { TaskObject } from '../durable-objects/task.ts';

const app = buildApp({ tasks: durableTaskService, now: () => Date.now() });

export default app satisfies ExportedHandler<Env>;
