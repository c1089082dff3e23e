/**
 * @module index
 * Worker entry: the Hono app as the default export, plus the Durable Object classes wrangler binds.
 */
import { buildApp } from './app.ts';

export { TaskObject } from '../durable-objects/task.ts';

const app = buildApp();

export default app satisfies ExportedHandler<Env>;
