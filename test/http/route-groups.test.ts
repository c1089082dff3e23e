// The Worker's entry serves the routes in groups it loads on first use (src/index.ts ROUTE_GROUPS,
// src/routes/groups): a path the table sends to the wrong group, or to none, would answer "no
// route" in production while the whole app (app.ts, which the other tests mostly use) serves it.
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';

const refuse = (): never => {
  throw new Error('not called: only the route table is read');
};

/** Every route the whole app serves, its parameters filled in; `ALL` is a 405 catch-all, asked with another method. */
function servedRoutes(): Array<{ method: string; path: string }> {
  const app = buildApp({ tasks: refuse, pullRequests: refuse, knowledge: refuse, now: () => 0 });
  const routes = new Map<string, { method: string; path: string }>();
  for (const route of app.routes) {
    if (route.path.includes('*')) continue; // middleware
    const path = route.path.replace(/:[A-Za-z0-9_]+/g, 'route-groups-test');
    const method = route.method === 'ALL' ? 'PATCH' : route.method;
    routes.set(`${method} ${path}`, { method, path });
  }
  return [...routes.values()];
}

/**
 * With a tenant's token, so a group's bearer check lets a misrouted request through to that
 * group's "no route" (a page sent to the API would otherwise stop at its 401).
 */
async function throughEntry(method: string, path: string): Promise<Response> {
  const headers = { authorization: `Bearer ${TEST_API_TOKENS.acme}` };
  return exports.default.fetch(`http://groundwork.test${path}`, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: '' }) });
}

describe("the Worker entry's route groups", () => {
  const routes = servedRoutes();

  it('know some twenty routes', () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  it.each(routes)('send $method $path to the group that serves it', async ({ method, path }) => {
    const res = await throughEntry(method, path);
    // Refused somehow (an empty body, no such task, no signature); "no route" means the group it reached has none.
    const body = res.headers.get('content-type')?.startsWith('application/json') ? ((await res.json()) as { error?: { message?: string } }) : undefined;
    expect(body?.error?.message ?? '').not.toMatch(/^no route for/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answer an unknown path with the 404 envelope and its request id, from the entry', async () => {
    const res = await throughEntry('GET', '/route-groups-test/nowhere');
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string; requestId: string } };
    expect(body.error).toMatchObject({ code: 'not_found', message: 'no route for GET /route-groups-test/nowhere' });
    expect(res.headers.get('x-request-id')).toBe(body.error.requestId);
  });
});
