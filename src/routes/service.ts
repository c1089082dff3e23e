/**
 * @module routes/service
 * `GET /health` and `GET /openapi.json`: what the service says about itself, answered by the
 * Worker's entry without loading any route group.
 */
import { Hono } from '../http/hono.ts';
import type { AppEnv } from '../http/app-env.ts';

export function serviceRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/health', (c) => c.json({ ok: true }));
  // Generated at build time from the routes' schemas (src/openapi/) and served from the ASSETS
  // binding, not the bundle. No auth: it holds no secrets.
  app.get('/openapi.json', (c) => c.env.ASSETS.fetch(new URL('/openapi.json', c.req.url)));
  return app;
}
