import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import type { KnowledgeScope } from '../../durable-objects/knowledge.ts';
import { getConfig } from '../../src/env.ts';
import { scopeObjectName } from '../../src/knowledge/durable-knowledge-service.ts';
import { repositoryIdentity, repositoryPolicy } from '../../src/tasks/repository-identity.ts';
import { describe, expect, inject, it } from 'vitest';
import { api, settled, waitForTask } from '../support/api.ts';
import { listAll, remember } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const REPO = 'acme/tenancy';

/** The tables an object holds: none for an object that was only ever asked about. */
async function tablesOf(stub: DurableObjectStub<KnowledgeScope>): Promise<string[]> {
  return runInDurableObject(stub, async (_instance, state) =>
    state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'knowledge')").toArray().map((row) => row.name),
  );
}

describe('tenancy', () => {
  it('answers 404 for another tenant on every route, and changes nothing', async () => {
    const k = await remember({ repo: REPO, statement: 'Only acme may see this.' });
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/knowledge/${k.id}`],
      ['GET', `/knowledge/${k.id}/versions`],
      ['PATCH', `/knowledge/${k.id}`, { statement: 'Globex was here.' }],
      ['POST', `/knowledge/${k.id}/retire`, { reason: 'Globex says so.' }],
    ];
    for (const [method, path, body] of routes) {
      const res = await api(method, path, { tenant: 'globex', ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error).toMatchObject({ code: 'not_found', message: `no knowledge ${k.id}` });
    }
    expect(await listAll(REPO, undefined, 'globex')).toEqual([]);
    expect((await listAll(REPO)).map((v) => [v.id, v.version, v.statement])).toEqual([[k.id, 1, k.statement]]);
  });

  it('keeps two tenants’ knowledge about one repository apart', async () => {
    const repo = 'acme/shared-name';
    const mine = await remember({ repo, statement: 'Acme knows this.' });
    const theirs = await remember({ repo, statement: 'Globex knows that.' }, 'globex');
    expect(mine.id.slice(0, 66)).not.toBe(theirs.id.slice(0, 66));
    expect((await listAll(repo)).map((v) => v.id)).toEqual([mine.id]);
    expect((await listAll(repo, undefined, 'globex')).map((v) => v.id)).toEqual([theirs.id]);
  });

  it('never lets a crafted id reach another tenant’s object, and probing leaves no storage behind', async () => {
    const k = await remember({ repo: 'acme/crafted', statement: 'Secret.' });
    const unwritten = env.KNOWLEDGE.newUniqueId();
    const crafted = [
      `k_${k.id.slice(2, 66)}_${'0'.repeat(16)}`, // acme's scope with a guessed suffix
      `k_${'f'.repeat(64)}_${k.id.slice(-16)}`, // not an object id of this namespace
      `k_${unwritten.toString()}_${k.id.slice(-16)}`, // a valid object nobody wrote to
      'k_../../etc',
      k.id.toUpperCase(),
    ];
    for (const id of crafted) {
      for (const tenant of ['acme', 'globex'] as const) {
        const res = await api('GET', `/knowledge/${encodeURIComponent(id)}`, { tenant });
        expect(res.status, `${tenant} ${id}`).toBe(404);
        expect((await api('PATCH', `/knowledge/${encodeURIComponent(id)}`, { tenant, body: { statement: 'x' } })).status).toBe(404);
      }
    }
    expect(await tablesOf(env.KNOWLEDGE.get(unwritten))).toEqual([]);
    // Listing a repository nobody wrote about is empty and creates no tables either.
    expect(await listAll('acme/never-written')).toEqual([]);
    const canonical = repositoryIdentity('acme/never-written', repositoryPolicy(getConfig(env)));
    if (!canonical.ok) throw new Error(canonical.reason);
    expect(await tablesOf(env.KNOWLEDGE.get(env.KNOWLEDGE.idFromName(scopeObjectName({ tenant: 'api:acme', repository: canonical.identity }))))).toEqual([]);
  });

  it('records what a task learned only for the task’s own tenant', async () => {
    const created = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'Explain the build.' } });
    const taskId = String(created.json['id']);
    await waitForTask(taskId, settled);
    const res = await api('POST', `/tasks/${taskId}/knowledge`, { tenant: 'globex', body: { statement: 'Globex learned this.' } });
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: 'not_found', message: `no task ${taskId}` });
    expect(await listAll(`${base()}/sample.git`, undefined, 'globex')).toEqual([]);
    expect((await api('POST', `/tasks/${'0'.repeat(64)}/knowledge`, { body: { statement: 'No such task.' } })).status).toBe(404);
  });

  it('refuses every route without a valid bearer token', async () => {
    for (const [method, path] of [
      ['GET', '/knowledge?repo=acme/x'],
      ['POST', '/knowledge'],
      ['GET', '/knowledge/k_x'],
      ['POST', `/tasks/${'0'.repeat(64)}/knowledge`],
    ] as const) {
      expect((await api(method, path, { tenant: null })).status, `${method} ${path}`).toBe(401);
      expect((await api(method, path, { token: 'not-a-valid-token-at-all' })).status, `${method} ${path}`).toBe(401);
    }
  });
});
