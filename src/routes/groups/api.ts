/**
 * @module routes/groups/api
 * What agents and their hosts call under bearer tokens: the REST API (tasks and knowledge) and
 * the remote MCP server at `/mcp`, whose tools call the same task and knowledge services, behind
 * the OAuth gate (auth/api-gate: an API token as before, else a person's access token). Loaded by
 * the Worker's entry on the first such request an isolate serves (index.ts).
 */
import { gateApi } from '../../auth/api-gate.ts';
import { routedApp } from '../../http/routed-app.ts';
import { knowledgeRoutes } from '../knowledge.ts';
import { mcpRoutes } from '../mcp.ts';
import { taskRoutes } from '../tasks.ts';
import { deployedDeps } from './deployed-deps.ts';

export const app = gateApi(routedApp((app) => app.route('/', taskRoutes(deployedDeps)).route('/', knowledgeRoutes(deployedDeps)).route('/', mcpRoutes(deployedDeps))));
