/**
 * @module routes/groups/pages
 * The inspector's pages: a task's page and a tenant's task list. Loaded by the Worker's entry on
 * the first page an isolate serves (index.ts).
 */
import { routedApp } from '../../http/routed-app.ts';
import { viewRoutes } from '../views.tsx';
import { deployedDeps } from './deployed-deps.ts';

export const app = routedApp((app) => app.route('/', viewRoutes(deployedDeps)));
