import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { gitHostAllowed } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { endOnly, holdTaskAlarms } from '../support/held-alarms.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;

describe('git host allowlist', () => {
  it('allows any host when the list is empty, else exact hosts and *.suffix only', () => {
    expect(gitHostAllowed('https://anything.test/x.git', [])).toBe(true);
    const allowed = ['git.example.com', '*.corp.test'];
    expect(gitHostAllowed('https://git.example.com/a.git', allowed)).toBe(true);
    expect(gitHostAllowed('https://GIT.example.com/a.git', allowed)).toBe(true);
    expect(gitHostAllowed('https://src.corp.test/a.git', allowed)).toBe(true);
    expect(gitHostAllowed('https://corp.test/a.git', allowed)).toBe(false);
    expect(gitHostAllowed('https://evilcorp.test/a.git', allowed)).toBe(false);
    expect(gitHostAllowed('https://git.example.com.evil.test/a.git', allowed)).toBe(false);
    expect(gitHostAllowed('http://169.254.169.254/latest', allowed)).toBe(false);
  });

  // The tests bind GIT_ALLOWED_HOSTS=127.0.0.1; `localhost` is the same server under a name that is not allowed.
  it('follows a redirect to an allowed host', async () => {
    const created = await api('POST', '/tasks', { body: { repo: `${base()}/_redirect/127.0.0.1/sample.git`, request: 'x' } });
    const task = TaskDescriptionSchema.parse(await waitForTask(String(created.json['id']), settled));
    expect(task.status).toBe('ready');
  });

  // Every alarm of the task is held and the test runs each attempt from the object's own handler, to
  // its end: none starts by itself, so however slow the machine, the task has made exactly the
  // attempts the test ran (an attempt the runtime began could still be telling the index of its
  // failure when the test's alarm came, which spent the retry it had armed).
  it('refuses to follow a redirect to a host outside the allowlist, on each of its three attempts', async () => {
    const alarms = holdTaskAlarms();
    try {
      const created = await api('POST', '/tasks', { body: { repo: `${base()}/_redirect/localhost/sample.git`, request: 'x' } });
      const id = String(created.json['id']);
      const stub = env.TASKS.get(env.TASKS.idFromString(id));
      const refused = 'localhost is not an allowed git host (GIT_ALLOWED_HOSTS)';
      for (const [attempt, retryMs] of [
        [1, 2_000],
        [2, 4_000],
      ] as const) {
        const before = Date.now();
        const armed = await alarms.run(stub);
        const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
        expect(task).toMatchObject({ status: 'pending', attempts: attempt });
        expect(task.reason).toContain(refused);
        expect(task.reason).toContain(`retrying in ${retryMs / 1000} s`);
        // One alarm, the retry, its backoff after the attempt.
        expect(armed).toHaveLength(1);
        expect(armed[0]).toBeGreaterThanOrEqual(before + retryMs);
      }
      const before = Date.now();
      const armed = await alarms.run(stub);
      const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
      expect(task).toMatchObject({ status: 'failed', attempts: 3 });
      expect(task.reason).toContain(refused);
      // The last attempt arms only the task's retention cleanup, never a fourth attempt.
      expect(endOnly(armed, Date.parse(task.expiresAt), before)).toBe(true);
    } finally {
      alarms.release();
    }
  });
});
