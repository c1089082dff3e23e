import { describe, expect, inject, it } from 'vitest';
import { api, settled, waitForTask } from '../support/api.ts';
import { BOUNDS_ASSEMBLY_TIMEOUT_MS } from './bindings.ts';
import { describeTask, runRetries, scheduledAlarm } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const overdue = (step: string) => `turn 0 was not assembled within ${BOUNDS_ASSEMBLY_TIMEOUT_MS} ms (ASSEMBLY_TIMEOUT_MS): still ${step}`;

async function create(body: Record<string, unknown>): Promise<string> {
  const created = await api('POST', '/tasks', { body: { request: 'Explain the build.', ...body } });
  expect(created.status).toBe(202);
  return String(created.json['id']);
}

describe('a git host that never answers', () => {
  it('fails the task at its deadline naming the host and the step, with bounded attempts, while the API keeps answering', async () => {
    const repo = `${base()}/_silent/sample.git`;
    const id = await create({ repo });
    const reason = overdue(`resolving HEAD of ${repo}`);

    // The object answers while its assembly waits on the silent host.
    await waitForTask(id, (task) => task.status === 'assembling');
    expect((await api('GET', '/health')).status).toBe(200);

    // Beginning turn 0 meanwhile is answered when the attempt ends; it does not hang.
    const begun = await api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } });
    expect(begun.status).toBe(409);
    expect(begun.json.error?.message).toBe(`turn 0 could not be assembled: ${reason}`);

    const retrying = await describeTask(id);
    expect(retrying.status).toBe('pending');
    expect(retrying.reason).toMatch(new RegExp(`^attempt [12] failed: ${escape(reason)}; retrying in [24] s$`));

    const failed = await runRetries(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, reason, commit: null, turns: [] });
    // What is left is retention cleanup, not a fourth attempt.
    expect(await scheduledAlarm(id)).toBe(Date.parse(failed.expiresAt));
  });

  it('fails a pinned commit whose pack never finishes arriving, naming the host and the step', async () => {
    const repo = `${base()}/_drip/sample.git`;
    const commit = inject('gitHttpFixtures').sample.head;
    const id = await create({ repo, ref: commit });
    await waitForTask(id, settled);
    const failed = await runRetries(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, reason: overdue(`reading ${repo} at ${commit}`), commit, turns: [] });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
