/**
 * @module routes/groups/mcp
 * The remote MCP server at `/mcp`. Loaded by the Worker's entry on the first MCP request an
 * isolate serves (index.ts).
 */
import { routedApp } from '../../http/routed-app.ts';
import { mcpRoutes } from '../mcp.ts';
import { deployedDeps } from './deployed-deps.ts';

export const app = routedApp((app) => app.route('/', mcpRoutes(deployedDeps)));
