/**
 * @module routes/groups/service
 * What the service says about itself (`GET /health`, `GET /openapi.json`) and the 404 envelope
 * for a path no route group serves. Loaded by the Worker's entry on the first such request an
 * isolate serves (index.ts).
 */
import { routedApp } from '../../http/routed-app.ts';
import { serviceRoutes } from '../service.ts';

export const app = routedApp((app) => app.route('/', serviceRoutes()));
