/**
 * @module app
 * Builds the Hono app: request ids, routes, and the one error handler.
 */
import { Hono } from 'hono';
import { ConfigError } from './env.ts';
import { ApiError, envelope } from './http/errors.ts';
import type { RouteDeps } from './routes/deps.ts';
import { githubWebhookRoute } from './routes/github-webhook.ts';
import { knowledgeRoutes } from './routes/knowledge.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { slackCommandRoute } from './routes/slack-command.ts';
import { taskRoutes } from './routes/tasks.ts';
import { viewRoutes } from './routes/views.tsx';

export type AppEnv = { Bindings: Env; Variables: { requestId: string } };

export function buildApp(deps: RouteDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const requestId = crypto.randomUUID();
    c.set('requestId', requestId);
    await next();
    c.header('x-request-id', requestId);
  });

  app.get('/health', (c) => c.json({ ok: true }));
  // Generated at build time from the routes' schemas (src/openapi/) and served from the ASSETS
  // binding, not the bundle. No auth: it holds no secrets.
  app.get('/openapi.json', (c) => c.env.ASSETS.fetch(new URL('/openapi.json', c.req.url)));
  // Triggers authenticate by signature; the tasks API by bearer token (its own middleware).
  app.route('/', githubWebhookRoute(deps));
  app.route('/', slackCommandRoute(deps));
  // Pages first: `/tasks/:id/view` also opens with a signed link, without the API's bearer token.
  app.route('/', viewRoutes(deps));
  app.route('/', taskRoutes(deps));
  app.route('/', knowledgeRoutes(deps));
  // The remote MCP server: its own bearer check (401 with WWW-Authenticate) and Origin check.
  app.route('/', mcpRoutes(deps));

  app.notFound((c) => c.json(envelope('not_found', `no route for ${c.req.method} ${c.req.path}`, c.get('requestId')), 404));
  app.onError((error, c) => {
    const requestId = c.get('requestId') ?? 'unknown';
    if (error instanceof ApiError) return c.json(envelope(error.code, error.message, requestId), error.status);
    if (error instanceof ConfigError) {
      console.error(`[${requestId}]`, error.message);
      const fields = error.fields.length > 0 ? `: check ${error.fields.join(', ')}` : '';
      return c.json(envelope('not_configured', `the service is not configured for this request${fields}`, requestId), 503);
    }
    console.error(`[${requestId}] unhandled`, error);
    return c.json(envelope('internal', 'internal error', requestId), 500);
  });
  return app;
}
