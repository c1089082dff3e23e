import { env } from 'cloudflare:workers';
import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { ConfigSchema } from '../../src/env.ts';
import { PermanentAssemblyError } from '../../src/tasks/errors.ts';
import { openTaskSource } from '../../src/tasks/open-source.ts';
import { displayRepo } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { holdTaskAlarms } from '../support/held-alarms.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const host = () => `127.0.0.1:${inject('gitHttpPort')}`;
const taskCount = async () => (await listDurableObjectIds(env.TASKS)).length;

/** Every spelling userinfo could be shown back in: as written, decoded, re-encoded, as Basic auth. */
function spellings(user: string, password: string): string[] {
  const parts = [user, password].filter((part) => part !== '');
  const forms = parts.flatMap((part) => [part, decodeURIComponent(part), encodeURIComponent(decodeURIComponent(part))]);
  return [...forms, btoa(`${decodeURIComponent(user)}:${decodeURIComponent(password)}`)];
}

describe('git URLs that do not parse', () => {
  // The tests bind GIT_ALLOWED_HOSTS, where such URLs used to reach `new URL()` unguarded and answer 500.
  const cases: Array<[string, string]> = [
    ['a host that is not a host', 'http://user:hunter2@%zz/x.git'],
    ['a malformed escape in the password', `http://user:hun%zzter2@${host()}/sample.git`],
    ['a malformed escape in the user', `http://us%zzer:hunter2@${host()}/sample.git`],
    ['a truncated escape', `http://user:hunter2%4@${host()}/sample.git`],
    ['an unclosed IPv6 literal', 'http://user:hunter2@[::1/x.git'],
    ['a port out of range', 'http://user:hunter2@127.0.0.1:99999/x.git'],
    ['no host at all', 'http://user:hunter2@/x.git'],
    ['a query string (tokens travel there too)', `http://${host()}/sample.git?access_token=hunter2`],
    ['a control character', `http://user:hunter2@${host()}/sam\u0007ple.git`],
  ];

  it.each(cases)('refuses %s with a 400 naming repo, never echoing the credential, and stores nothing', async (_label, repo) => {
    const before = await taskCount();
    const res = await api('POST', '/tasks', { body: { repo, request: 'x' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^repo: /) });
    expect(JSON.stringify(res.json)).not.toContain('hunter2');
    expect(JSON.stringify(res.json)).not.toContain('hun%zzter2');
    expect(await taskCount()).toBe(before);
  });

  it('fails a stored task whose URL has a malformed escape at once, without retrying', async () => {
    const config = ConfigSchema.parse({ GIT_ALLOWED_HOSTS: '' });
    const opened = openTaskSource({ repo: `http://user:hun%zzter2@${host()}/sample.git` }, { config, fetch });
    await expect(opened).rejects.toBeInstanceOf(PermanentAssemblyError);
    await expect(opened).rejects.toThrow(/^remote git URL has a malformed percent-escape in its user name or password$/);
  });

  it('shows a stored URL that does not parse as a placeholder, never as written', () => {
    expect(displayRepo('http://user:hunter2@%zz/x.git')).toBe('(a git URL that does not parse; not shown)');
  });
});

describe('credentials in git URLs that parse', () => {
  const cases: Array<[string, string, string]> = [
    ['user and password', 'reader-7f3', 's3cret-pw'],
    ['a token as the user name', 'ghp_tokenAsUser0123', ''],
    ['a password only', '', 's3cret-only'],
    ['encoded characters', 'read%40er-7f3', 'pa%3Ass%2Fw%40rd'],
  ];

  it.each(cases)('never shows %s back: not in GET /tasks/:id, its reason, or the turn', async (_label, user, password) => {
    const userinfo = password === '' ? `${user}@` : `${user}:${password}@`;
    const created = await api('POST', '/tasks', { body: { repo: `HTTP://${userinfo}${host()}/sample.git/`, request: 'Explain the build.' } });
    expect(created.status).toBe(202);
    const id = String(created.json['id']);
    const task = TaskDescriptionSchema.parse(await waitForTask(id, settled));
    expect(task.status).toBe('ready');
    expect(task.request.repo).toBe(`http://${host()}/sample.git`);
    const turn = await api('GET', `/tasks/${id}/turns/0`);
    // The credential was used: the object stored it to read with.
    const stored = await runInDurableObject(env.TASKS.get(env.TASKS.idFromString(id)), (_, state) => state.storage.sql.exec('SELECT request FROM task').one());
    expect(String(stored['request'])).toContain(userinfo);
    for (const secret of spellings(user, password)) {
      expect(JSON.stringify(task)).not.toContain(secret);
      expect(JSON.stringify(turn.json)).not.toContain(secret);
    }
  });

  it('never shows them in the reason of a task that failed', async () => {
    // The test runs the attempt itself (alarms held), so the reason it reads is final: a repository
    // that is not there fails the task at once.
    const alarms = holdTaskAlarms();
    try {
      const created = await api('POST', '/tasks', { body: { repo: `http://reader-7f3:s3cret-pw@${host()}/no-such-repository.git`, request: 'x' } });
      const id = String(created.json['id']);
      const stub = env.TASKS.get(env.TASKS.idFromString(id));
      await alarms.run(stub);
      const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
      expect(task).toMatchObject({ status: 'failed', attempts: 1 });
      expect(task.reason).toContain(`http://${host()}/no-such-repository.git`);
      for (const secret of spellings('reader-7f3', 's3cret-pw')) expect(JSON.stringify(task)).not.toContain(secret);
    } finally {
      alarms.release();
    }
  });
});
