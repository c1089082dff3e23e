import { env } from 'cloudflare:workers';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, checkedFetch, settled, waitForTask } from '../support/api.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const fixtures = () => inject('gitHttpFixtures');

function stubOf(id: string) {
  return env.TASKS.get(env.TASKS.idFromString(id));
}

async function createReadyTask(body: Record<string, unknown> = {}) {
  const created = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'Explain the build.', ...body } });
  expect(created.status).toBe(202);
  const id = String(created.json['id']);
  await waitForTask(id, settled);
  return id;
}

describe('POST /tasks', () => {
  it('persists the task, answers 202 pending, and assembles turn 0 in the alarm', async () => {
    const created = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'Explain the build.', skills: ['review'] } });
    expect(created.status).toBe(202);
    const id = String(created.json['id']);
    expect(created.json).toEqual({ id: expect.stringMatching(/^[0-9a-f]{64}$/), status: 'pending', viewUrl: expect.stringMatching(new RegExp(`^http://groundwork\\.test/tasks/${id}/view\\?exp=\\d+&sig=[0-9a-f]{64}$`)) });

    const pending = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    // The alarm for "now" may already be running.
    expect(['pending', 'assembling']).toContain(pending.status);
    expect(pending).toMatchObject({ request: { origin: 'api', tenant: 'api:acme', skills: ['review'] } });

    await waitForTask(id, settled);
    const ready = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(ready.status).toBe('ready');
    expect(ready.commit).toBe(fixtures().sample.head);
    expect(ready.turns).toHaveLength(1);
    expect(ready.turns[0]).toMatchObject({ turn: 0, digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), agent: 'entry', commit: fixtures().sample.head });
  });

  it('returns the assembled first turn with provenance at the pinned commit', async () => {
    const id = await createReadyTask();
    const res = await api('GET', `/tasks/${id}/turns/0`);
    expect(res.status).toBe(200);
    const turn = AssembledTurnSchema.parse(res.json);
    expect(turn.commit).toBe(fixtures().sample.head);
    expect(turn.messages.map((m) => m.role)).toEqual(['system', 'system', 'system', 'user']);
    const rules = turn.entries.find((entry) => entry.provider === 'rules');
    expect(rules).toMatchObject({ title: 'AGENTS.md', source: { path: 'AGENTS.md', revision: fixtures().sample.head } });
    expect(rules?.warnings).toContain('AGENTS.md is a symlink to docs/AGENTS.md, resolved at this commit');
    expect(turn.messages[3]?.content).toContain('Run `npm test` before committing.');
  });

  it('never shows the credentials of a git URL back', async () => {
    const url = `${base()}/sample.git`.replace('http://', 'http://reader:s3cret@');
    const created = await api('POST', '/tasks', { body: { repo: url, request: 'Explain the build.' } });
    const id = String(created.json['id']);
    const task = TaskDescriptionSchema.parse(await waitForTask(id, settled));
    expect(task.status).toBe('ready');
    expect(task.request.repo).toBe(`${base()}/sample.git`);
    const turn = await api('GET', `/tasks/${id}/turns/0`);
    expect(JSON.stringify(turn.json)).not.toContain('s3cret');
  });

  it('accepts Unicode skill names and skill paths, and keeps them normalised', async () => {
    const id = await createReadyTask({ skills: ['навык', 'cafe\u0301', ' 技能 ', './.agents/skills/deploy/'] });
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.status).toBe('ready');
    expect(task.request.skills).toEqual(['навык', 'café', '技能', '.agents/skills/deploy']);
  });

  it('pins a requested ref once and keeps it', async () => {
    const id = await createReadyTask({ ref: 'v1.0' });
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.commit).toBe(fixtures().sample.first);
  });

  it.each([
    [{ request: 'x' }, 'repo: '],
    [{ repo: 'not a repo', request: 'x' }, 'repo: must be owner/name or an http(s) git URL'],
    [{ repo: 'o/r', request: '   ' }, 'request: must not be empty'],
    [{ repo: 'o/r', request: 'x', agent: 'wizard' }, 'agent: unknown agent "wizard"'],
    [{ repo: 'o/r', request: 'x', cwd: '../etc' }, 'cwd: path escapes the repository root'],
    [{ repo: 'https://internal.example/x.git', request: 'x' }, 'repo: internal.example is not an allowed git host on this deployment'],
    [{ repo: 'o/r', request: 'x', skills: ['Not Valid'] }, 'skills[0]: a skill name is 1-64 lowercase letters, digits and -'],
    [{ repo: 'o/r', request: 'x', skills: ['навык', 'НАВЫК'] }, 'skills[1]: a skill name is 1-64 lowercase letters, digits and - (not at either end, never --), or a path to the skill: "НАВЫК" must be lowercase'],
    [{ repo: 'o/r', request: 'x', skills: ['../x'] }, "skills[0]: is not a skill's path: path escapes the repository root"],
    [{ repo: 'o/r', request: 'x', tenant: 'api:globex' }, 'Unrecognized key: "tenant"'],
    [{ repo: 'o/r', request: 'x', parentTaskId: 'f'.repeat(64) }, `parentTaskId: no task ${'f'.repeat(64)}`],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const res = await api('POST', '/tasks', { body });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'bad_request', requestId: expect.any(String) });
    expect(res.json.error?.message).toContain(message);
  });

  it('answers 503 for owner/name when this deployment has no GitHub token', async () => {
    const res = await api('POST', '/tasks', { body: { repo: 'acme/widgets', request: 'x' } });
    expect(res.status).toBe(503);
    expect(res.json.error).toMatchObject({ code: 'not_configured', message: expect.stringContaining('repo: owner/name repositories need GITHUB_TOKEN') });
  });

  it('refuses a body that is not JSON, or not declared as JSON', async () => {
    expect((await api('POST', '/tasks', { body: '{"repo":' })).json.error).toMatchObject({ code: 'bad_request', message: 'body is not valid JSON' });
    const res = await api('POST', '/tasks', { body: undefined });
    expect(res.status).toBe(415);
    // A media type, not a prefix: application/jsonx and its like are not JSON.
    for (const type of ['application/jsonx', 'application/json-patch+json', 'application/json; charset=iso-8859-1']) {
      const refused = await checkedFetch('http://groundwork.test/tasks', { method: 'POST', headers: { authorization: `Bearer ${TEST_API_TOKENS.acme}`, 'content-type': type }, body: '{}' });
      expect(refused.status, type).toBe(415);
    }
  });

  it('records lineage to a parent task of the same tenant', async () => {
    const parent = await createReadyTask();
    const child = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'follow-up', parentTaskId: parent } });
    expect(child.status).toBe(202);
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${String(child.json['id'])}`)).json);
    expect(task.request.parentTaskId).toBe(parent);
    await waitForTask(String(child.json['id']), settled);
    const foreign = await api('POST', '/tasks', { tenant: 'globex', body: { repo: 'o/r', request: 'x', parentTaskId: parent } });
    expect(foreign.status).toBe(400);
  });
});

describe('auth and tenancy', () => {
  it('answers 401 without a token or with a wrong one', async () => {
    for (const options of [{ tenant: null }, { token: 'acme-token-0123456789abcdeX' }] as const) {
      const res = await api('POST', '/tasks', { ...options, body: { repo: 'o/r', request: 'x' } });
      expect(res.status).toBe(401);
      expect(res.json.error?.code).toBe('unauthorized');
    }
  });

  it("never shows one tenant's task to another", async () => {
    const id = await createReadyTask();
    for (const [method, path, body] of [
      ['GET', `/tasks/${id}`, undefined],
      ['GET', `/tasks/${id}/turns/0`, undefined],
      ['POST', `/tasks/${id}/turns`, { turn: 0 }],
      ['POST', `/tasks/${id}/transcript`, { items: [{ id: 'm1', type: 'message', role: 'assistant', content: 'hi' }] }],
    ] as const) {
      const res = await api(method, path, { tenant: 'globex', ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error?.code).toBe('not_found');
    }
    const transcript = await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec('SELECT COUNT(*) AS n FROM transcript').one());
    expect(transcript['n']).toBe(1);
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const res = await checkedFetch('http://groundwork.test/tasks', { method: 'DELETE', headers: { authorization: `Bearer ${TEST_API_TOKENS.acme}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(await res.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it('answers 404 for unknown and malformed task ids', async () => {
    const unknown = env.TASKS.newUniqueId().toString();
    expect((await api('GET', `/tasks/${unknown}`)).status).toBe(404);
    expect((await api('GET', '/tasks/not-an-id')).status).toBe(404);
  });
});
