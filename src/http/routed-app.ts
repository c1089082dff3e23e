/**
 * @module http/routed-app
 * The Hono app a set of routes runs in: a request id on every answer, one error handler, and the
 * 404 envelope for paths none of them serves. The whole app (app.ts) and each route group the
 * Worker loads on first use (routes/groups) are built with it, so they answer alike.
 */
import { Hono } from './hono.ts';
import { ConfigError } from '../config-error.ts';
import type { AppEnv } from './app-env.ts';
import { ApiError, envelope } from './errors.ts';

/** `mount` adds the routes (`app.route('/', …)` for each, so each keeps its own Hono environment). */
export function routedApp(mount: (app: Hono<AppEnv>) => unknown): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const requestId = crypto.randomUUID();
    c.set('requestId', requestId);
    await next();
    c.header('x-request-id', requestId);
  });
  mount(app);

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
