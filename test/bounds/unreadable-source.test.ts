import { describe, expect, inject, it } from 'vitest';
import { api, settled, waitForTask } from '../support/api.ts';
import { BOUNDS_MAX_FETCH_BYTES } from './bindings.ts';
import { describeTask } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;

describe('a repository that cannot be read', () => {
  it('fails the task at once, naming GIT_MAX_FETCH_BYTES, when the pack is over the cap; no turn says its rules were empty', async () => {
    const repo = `${base()}/history.git`;
    const { big, bigBytes } = inject('gitHttpFixtures').history;
    expect(bigBytes).toBeGreaterThan(BOUNDS_MAX_FETCH_BYTES);
    const created = await api('POST', '/tasks', { body: { repo, ref: big, request: 'Explain the build.' } });
    const id = String(created.json['id']);
    await waitForTask(id, settled);

    const task = await describeTask(id);
    // Raising the cap is the only fix, so no retry is spent on it.
    expect(task).toMatchObject({ status: 'failed', attempts: 1, commit: big, turns: [] });
    expect(task.reason).toBe(
      `could not read ${repo} at ${big}: fetching ${repo} at ${big} exceeded the size cap of ${BOUNDS_MAX_FETCH_BYTES} bytes (GIT_MAX_FETCH_BYTES); raise it to read this repository`,
    );
    const turn = await api('GET', `/tasks/${id}/turns/0`);
    expect(turn.status).toBe(404);
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } })).status).toBe(409);
  });
});
