import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { api } from '../support/api.ts';
import { endOnly, holdTaskAlarms, type HeldAlarms } from '../support/held-alarms.ts';
import { BOUNDS_MAX_FETCH_BYTES } from './bindings.ts';
import { describeTask, holdDeadlines, stubOf, type HeldDeadlines } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;

// The test runs the task's one attempt itself (its alarms are held), and this project's one-second
// assembly deadline is held too (never fired): on a loaded machine it could end the attempt before
// the pack reached the cap, and the attempt would be retried instead.
let alarms: HeldAlarms;
let deadlines: HeldDeadlines;
beforeEach(() => {
  alarms = holdTaskAlarms();
  deadlines = holdDeadlines();
});
afterEach(() => {
  deadlines.release();
  alarms.release();
});

describe('a repository that cannot be read', () => {
  it('fails the task at once, naming GIT_MAX_FETCH_BYTES, when the pack is over the cap; no turn says its rules were empty', async () => {
    const repo = `${base()}/history.git`;
    const { big, bigBytes } = inject('gitHttpFixtures').history;
    expect(bigBytes).toBeGreaterThan(BOUNDS_MAX_FETCH_BYTES);
    const created = await api('POST', '/tasks', { body: { repo, ref: big, request: 'Explain the build.' } });
    const id = String(created.json['id']);

    // One attempt: the cap is never retried (raising it is the only fix).
    const before = Date.now();
    const armed = await alarms.run(stubOf(id));
    const task = await describeTask(id);
    expect(task).toMatchObject({ status: 'failed', attempts: 1, commit: big, turns: [] });
    expect(task.reason).toBe(
      `could not read ${repo} at ${big}: fetching ${repo} at ${big} exceeded the size cap of ${BOUNDS_MAX_FETCH_BYTES} bytes (GIT_MAX_FETCH_BYTES); raise it to read this repository`,
    );
    expect(endOnly(armed, Date.parse(task.expiresAt), before)).toBe(true);
    const turn = await api('GET', `/tasks/${id}/turns/0`);
    expect(turn.status).toBe(404);
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } })).status).toBe(409);
  });
});
