/**
 * @module app
 * Every route in one Hono app: the tests' and the OpenAPI coverage's view of the service. The
 * deployed Worker serves the same routes in groups, each loaded on first use (index.ts,
 * routes/groups); both are built with http/routed-app, so they answer alike.
 */
import type { Hono } from 'hono';
import type { AppEnv } from './http/app-env.ts';
import { routedApp } from './http/routed-app.ts';
import type { RouteDeps } from './routes/deps.ts';
import { githubWebhookRoute } from './routes/github-webhook.ts';
import { knowledgeRoutes } from './routes/knowledge.ts';
import { authRoutes } from './routes/auth.tsx';
import { mcpRoutes } from './routes/mcp.ts';
import { serviceRoutes } from './routes/service.ts';
import { slackCommandRoute } from './routes/slack-command.ts';
import { taskRoutes } from './routes/tasks.ts';
import { viewRoutes } from './routes/views.tsx';

export function buildApp(deps: RouteDeps): Hono<AppEnv> {
  // Triggers authenticate by signature; the tasks API by bearer token (its own middleware). Pages
  // first: `/tasks/:id/view` also opens with a signed link or a sign-in, without the API's bearer
  // token. The remote MCP server has its own bearer check (401 with WWW-Authenticate) and Origin
  // check. The OAuth gate in front of the API (auth/api-gate) and the provider's own endpoints are
  // the deployed entry's (index.ts); this app holds the sign-in pages (routes/auth).
  return routedApp((app) =>
    app
      .route('/', serviceRoutes())
      .route('/', githubWebhookRoute(deps))
      .route('/', slackCommandRoute(deps))
      .route('/', viewRoutes(deps))
      .route('/', taskRoutes(deps))
      .route('/', knowledgeRoutes(deps))
      .route('/', mcpRoutes(deps))
      .route('/', authRoutes()),
  );
}
