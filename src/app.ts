/**
 * @module app
 * Builds the Hono app: request ids, routes, and the one error handler.
 */
import { Hono } from 'hono';

export type AppEnv = { Bindings: Env };

export function buildApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/health', (c) => c.json({ ok: true }));
  return app;
}
