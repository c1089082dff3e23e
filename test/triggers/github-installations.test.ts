import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createTokenCache } from '../../src/sources/github/token-cache.ts';
import { installationForRepo, readInstallation } from '../../src/triggers/github/installations.ts';
import { deliver as deliverDelivery, deliveryInit, example, fakeTaskService, NOW, testEnv, triggerApp, WEBHOOK_URL } from './support.ts';

/** Installation events never create tasks. */
async function deliver(payload: unknown, event: string) {
  const { status, body, tasks } = await deliverDelivery(payload, event);
  expect(tasks.calls).toEqual([]);
  return { status, body };
}

function created(id: number) {
  const payload = example('installation', 'created');
  payload.installation.id = id;
  return payload;
}

function repositories(id: number, action: 'added' | 'removed', added: string[], removed: string[]) {
  const payload = example('installation_repositories', action);
  payload.installation.id = id;
  const repo = (full_name: string) => ({ id: full_name.length, node_id: 'R', name: full_name.split('/')[1] ?? '', full_name, private: false });
  payload.repositories_added = added.map(repo);
  payload.repositories_removed = removed.map(repo);
  return payload;
}

describe('installation events keep the tenant repository list in TENANTS', () => {
  it('stores a new installation with its repositories, keyed by installation id', async () => {
    const { status, body } = await deliver(created(900_001), 'installation');
    expect(status).toBe(200);
    expect(body).toEqual({ installationId: 900_001, action: 'created', repositories: 1 });
    expect(await readInstallation(env.TENANTS, 900_001)).toEqual({
      installationId: 900_001,
      account: 'Codertocat',
      selection: 'selected',
      repositories: ['Codertocat/Hello-World'],
      suspended: false,
      updatedAt: new Date(NOW).toISOString(),
    });
    expect(await env.TENANTS.get('account:codertocat')).toBe('900001');
  });

  it('adds and removes repositories as the installation changes', async () => {
    await deliver(created(900_002), 'installation');
    const added = await deliver(repositories(900_002, 'added', ['Codertocat/Space', 'Codertocat/Rocket'], []), 'installation_repositories');
    expect(added.body).toEqual({ installationId: 900_002, action: 'added', repositories: 3 });
    await deliver(repositories(900_002, 'removed', [], ['Codertocat/Hello-World']), 'installation_repositories');
    expect((await readInstallation(env.TENANTS, 900_002))?.repositories).toEqual(['Codertocat/Rocket', 'Codertocat/Space']);
    expect((await installationForRepo(env.TENANTS, 'codertocat/space'))?.installationId).toBe(900_002);
    expect(await installationForRepo(env.TENANTS, 'Codertocat/Hello-World')).toBeUndefined();
  });

  it('keeps the list through suspension but stops offering the installation', async () => {
    await deliver(created(900_003), 'installation');
    const suspend = example('installation', 'suspend');
    suspend.installation.id = 900_003;
    await deliver(suspend, 'installation');
    expect(await readInstallation(env.TENANTS, 900_003)).toMatchObject({ suspended: true, repositories: ['Codertocat/Hello-World'] });
    expect(await installationForRepo(env.TENANTS, 'Codertocat/Hello-World')).toBeUndefined();
  });

  it('forgets an installation when the App is uninstalled', async () => {
    await deliver(created(900_004), 'installation');
    const deleted = example('installation', 'deleted');
    deleted.installation.id = 900_004;
    Object.assign(deleted.installation, { account: { ...deleted.installation.account, login: 'Codertocat' } });
    const { body } = await deliver(deleted, 'installation');
    expect(body).toEqual({ installationId: 900_004, action: 'deleted', repositories: 0 });
    expect(await env.TENANTS.get('installation:900004')).toBeNull();
    expect(await env.TENANTS.get('account:codertocat')).toBeNull();
  });

  it.each([
    ['installation', 'new_permissions_accepted'],
    ['installation', 'suspend'],
    ['installation', 'unsuspend'],
    ['installation', 'deleted'],
    ['installation_repositories', 'added'],
  ] as const)('drops the stored installation tokens on %s %s, and only that installation\'s', async (event, action) => {
    const id = 900_100 + 10 * ['new_permissions_accepted', 'suspend', 'unsuspend', 'deleted', 'added'].indexOf(action);
    const value = `ghs_x|${new Date().toISOString()}|${new Date(Date.now() + 3_600_000).toISOString()}|all||`;
    const tokens = createTokenCache({ store: env.TENANTS, scope: 'https://api.github.test 1', secret: 'key', memory: new Map() });
    await tokens.set(String(id), value);
    await tokens.set(String(id + 1), value);
    const payload = event === 'installation' ? example('installation', action) : repositories(id, 'added', ['Codertocat/Space'], []);
    payload.installation.id = id;
    expect((await deliver(payload, event)).status).toBe(200);
    expect((await env.TENANTS.list({ prefix: `installation-token:v1:${id}:` })).keys).toEqual([]);
    expect((await env.TENANTS.list({ prefix: `installation-token:v1:${id + 1}:` })).keys).toHaveLength(1);
  });

  it('answers 400 and stores nothing for an installation payload without an id', async () => {
    const payload = created(900_005);
    Object.assign(payload.installation, { id: 'nine' });
    const before = await env.TENANTS.list();
    const tasks = fakeTaskService();
    const response = await triggerApp(tasks).request(WEBHOOK_URL, await deliveryInit(payload, { event: 'installation' }), testEnv());
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('installation.id') } });
    expect((await env.TENANTS.list()).keys).toEqual(before.keys);
  });
});
