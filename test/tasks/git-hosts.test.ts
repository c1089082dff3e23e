import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, inject, it, vi } from 'vitest';
import { gitHostAllowed } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, SETTLE_GUARD_MS, settled, waitForTask } from '../support/api.ts';

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

  it('refuses to follow a redirect to a host outside the allowlist', async () => {
    const created = await api('POST', '/tasks', { body: { repo: `${base()}/_redirect/localhost/sample.git`, request: 'x' } });
    const id = String(created.json['id']);
    const task = TaskDescriptionSchema.parse(await waitForTask(id, settled));
    expect(task.status).toBe('pending');
    expect(task.reason).toContain('localhost is not an allowed git host (GIT_ALLOWED_HOSTS)');
    // Let the remaining attempts run now, so no alarm outlives the test. An attempt the alarm began
    // by itself may still be running when we ask, so keep asking until the task settles: however
    // long a loaded machine takes, only the test's own guard ends the wait.
    const stub = env.TASKS.get(env.TASKS.idFromString(id));
    const last = await vi.waitFor(
      async () => {
        await runDurableObjectAlarm(stub);
        const now = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
        expect(now.status).toBe('failed');
        return now;
      },
      { timeout: SETTLE_GUARD_MS, interval: 50 },
    );
    expect(last).toMatchObject({ status: 'failed', attempts: 3 });
  });
});
