/**
 * @module routes/groups/api
 * The REST API under bearer tokens: tasks and knowledge. Loaded by the Worker's entry on the
 * first such request an isolate serves (index.ts).
 */
import { routedApp } from '../../http/routed-app.ts';
import { knowledgeRoutes } from '../knowledge.ts';
import { taskRoutes } from '../tasks.ts';
import { deployedDeps } from './deployed-deps.ts';

export const app = routedApp((app) => app.route('/', taskRoutes(deployedDeps)).route('/', knowledgeRoutes(deployedDeps)));
