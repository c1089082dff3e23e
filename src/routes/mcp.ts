/**
 * @module routes/mcp
 * The remote MCP server: `POST /mcp`, the protocol's Streamable HTTP transport (mcp/http-handler),
 * stateless: each request gets a new server, so any Worker instance answers any request and task
 * state stays in the Task objects. Answers are JSON, not an event stream: every tool answers
 * within its bound, so there is nothing to stream, and no stream is left open on a Worker. `GET`
 * (a stream of server-initiated messages) and `DELETE` (ending a session) are 405: a stateless
 * server has neither.
 *
 * Protocol glue only: authentication (a person the OAuth provider let through, auth/api-gate, or
 * the REST API's tokens; where OAuth is not offered, 401 with `WWW-Authenticate: Bearer`), the
 * Origin check the MCP security guidance asks for (a browser
 * page on another origin, e.g. after DNS rebinding, is refused 403), then the tools of
 * mcp/server over the Worker's task and knowledge services.
 */
import type { Context } from 'hono';
import { Hono } from '../http/hono.ts';
import { createMiddleware } from 'hono/factory';
import { getConfig } from '../env.ts';
import { requestIdentity, type TenantEnv } from '../http/bearer-auth.ts';
import { ApiError, envelope } from '../http/errors.ts';
import { MAX_JSON_BYTES } from '../http/validate.ts';
import { originAllowed } from '../mcp/allowed-origin.ts';
import { answerMcpRequest } from '../mcp/http-handler.ts';
import { createGroundworkServer } from '../mcp/server.ts';
import { serviceKnowledgeTools } from '../mcp/service-knowledge.ts';
import { serviceSkillTools } from '../mcp/service-skills.ts';
import { serviceTaskTools, type ServiceContext } from '../mcp/service-tasks.ts';
import type { RouteDeps } from './deps.ts';

/** How long `assemble_context` (and `get_turn` of a task still assembling) waits before answering the task's id and status. */
export const ASSEMBLE_WAIT_MS = 25_000;

/** 401 with the challenge RFC 6750 and the MCP authorization guidance ask for. */
const requireMcpTenant = createMiddleware<TenantEnv>(async (c, next) => {
  const found = await requestIdentity(c);
  if (!found.ok) {
    const invalid = found.reason === 'invalid';
    c.header('WWW-Authenticate', invalid ? 'Bearer realm="groundwork", error="invalid_token"' : 'Bearer realm="groundwork"');
    const message = invalid ? 'the bearer token is not valid' : 'Authorization: Bearer <token> is required (an API token of this deployment)';
    return c.json(envelope('unauthorized', message, c.get('requestId')), 401);
  }
  c.set('identity', found.identity);
  c.set('tenant', found.identity.tenant);
  await next();
});

/** A browser sends `Origin`; other clients do not (mcp/allowed-origin says which may call). */
const checkOrigin = createMiddleware<TenantEnv>(async (c, next) => {
  const origin = c.req.header('origin');
  const config = getConfig(c.env);
  if (!originAllowed(origin, { publicUrl: config.PUBLIC_URL, allowed: config.MCP_ALLOWED_ORIGINS, requestUrl: c.req.url })) {
    throw new ApiError('forbidden', `Origin ${String(origin).slice(0, 200)} may not call /mcp; a browser client's origin must be this service's own (PUBLIC_URL, or a loopback origin when PUBLIC_URL is unset) or listed in MCP_ALLOWED_ORIGINS`);
  }
  await next();
});

export function mcpRoutes(deps: RouteDeps): Hono<TenantEnv> {
  const app = new Hono<TenantEnv>();

  // Checked before the token, so a page on a foreign origin learns nothing about tokens.
  app.post('/mcp', checkOrigin, requireMcpTenant, async (c) => {
    const log = (message: string, error: unknown) => console.error(`[${c.get('requestId')}] ${message}`, error);
    return answerMcpRequest(c.req.raw, createGroundworkServer(backendFor(c, deps), { where: 'remote', log }), MAX_JSON_BYTES);
  });

  app.all('/mcp', (c) => {
    c.header('Allow', 'POST');
    throw new ApiError('method_not_allowed', `${c.req.method} is not allowed on /mcp; use POST (this server is stateless: it opens no event stream and keeps no session)`);
  });
  return app;
}

function backendFor(c: Context<TenantEnv>, deps: RouteDeps) {
  const ctx: ServiceContext = { env: c.env, tenant: c.get('tenant'), identity: c.get('identity'), deps, requestUrl: c.req.url, waitMs: ASSEMBLE_WAIT_MS };
  return { ...serviceTaskTools(ctx), ...serviceKnowledgeTools(ctx), ...serviceSkillTools(ctx) };
}
