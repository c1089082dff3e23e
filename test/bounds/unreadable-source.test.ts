import { runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { api, settled, waitForTask } from '../support/api.ts';
import { BOUNDS_MAX_FETCH_BYTES } from './bindings.ts';
import { describeTask, stubOf } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;

describe('a repository that cannot be read', () => {
  it('fails the task at once, naming GIT_MAX_FETCH_BYTES, when the pack is over the cap; no turn says its rules were empty', async () => {
    const repo = `${base()}/history.git`;
    const { big, bigBytes } = inject('gitHttpFixtures').history;
    expect(bigBytes).toBeGreaterThan(BOUNDS_MAX_FETCH_BYTES);
    const created = await api('POST', '/tasks', { body: { repo, ref: big, request: 'Explain the build.' } });
    const id = String(created.json['id']);
    await waitForTask(id, settled);

    let task = await describeTask(id);
    // On a loaded machine this project's one-second deadline can end an attempt before the pack
    // reaches the cap; such an attempt is retried. The cap never is: raising it is the only fix,
    // so the attempt that meets it fails the task.
    for (let retries = 0; task.status === 'pending' && retries < 2; retries++) {
      expect(task.reason).not.toContain('GIT_MAX_FETCH_BYTES');
      await runDurableObjectAlarm(stubOf(id));
      task = await describeTask(id);
    }
    expect(task).toMatchObject({ status: 'failed', commit: big, turns: [] });
    expect(task.reason).toBe(
      `could not read ${repo} at ${big}: fetching ${repo} at ${big} exceeded the size cap of ${BOUNDS_MAX_FETCH_BYTES} bytes (GIT_MAX_FETCH_BYTES); raise it to read this repository`,
    );
    const turn = await api('GET', `/tasks/${id}/turns/0`);
    expect(turn.status).toBe(404);
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } })).status).toBe(409);
  });
});
