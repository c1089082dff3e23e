import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import document from '../../docs/openapi.json' with { type: 'json' };
import { checkedFetch } from '../support/api.ts';

const refuse = (): never => {
  throw new Error('not called: only the route table is read');
};

/** Every route the app serves, as `METHOD /openapi/{path}`; middleware and 405 catch-alls are `ALL`. */
function servedRoutes(): { operations: string[]; paths: string[] } {
  const app = buildApp({ tasks: refuse, pullRequests: refuse, knowledge: refuse, now: () => 0 });
  const operations = new Set<string>();
  const paths = new Set<string>();
  for (const route of app.routes) {
    if (route.path.includes('*')) continue;
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    paths.add(path);
    if (route.method !== 'ALL') operations.add(`${route.method} ${path}`);
  }
  return { operations: [...operations].sort(), paths: [...paths].sort() };
}

const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
  .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
  .sort();

describe('the OpenAPI document and the app', () => {
  it('describe the same operations: a route the app serves that the document lacks fails here (add it to src/openapi/operations.ts)', () => {
    expect(servedRoutes().operations).toEqual(documented);
  });

  it('know the same paths (the 405 answers of other methods included)', () => {
    expect(servedRoutes().paths).toEqual(Object.keys(document.paths).sort());
  });

  it('is served at GET /openapi.json without a token, as the build wrote it', async () => {
    const res = await checkedFetch('http://groundwork.test/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(document);
  });
});
