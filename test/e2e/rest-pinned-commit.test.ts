import { describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const sample = () => `http://127.0.0.1:${inject('gitHttpPort')}/sample.git`;
const fixtures = () => inject('gitHttpFixtures');

async function assembled(body: Record<string, unknown>) {
  const created = await api('POST', '/tasks', { body });
  expect(created.status, JSON.stringify(created.json)).toBe(202);
  const id = String(created.json['id']);
  return { id, task: TaskDescriptionSchema.parse(await waitForTask(id, settled, 20_000)) };
}

describe('a task created with the commit its ref already resolved to', () => {
  it('is pinned at that commit and still names the branch it came from', async () => {
    const { first, head } = fixtures().sample;
    const { id, task } = await assembled({ repo: sample(), ref: 'main', commit: first, request: 'Tidy up.' });
    expect(task.status, task.reason ?? '').toBe('ready');
    const turn = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    expect(turn.commit).toBe(first);
    expect(turn.commit).not.toBe(head);
    expect(turn.entries.map((entry) => entry.title)).toContain('How the commit was chosen');
    const user = turn.messages.find((message) => message.role === 'user')?.content ?? '';
    expect(user).toContain(`Ref: main, resolved to ${first} when the task was pinned; it may point elsewhere now.`);
  });

  it('refuses a commit without the ref it was resolved from, naming the field, and stores nothing', async () => {
    const created = await api('POST', '/tasks', { body: { repo: sample(), commit: fixtures().sample.first, request: 'Tidy up.' } });
    expect(created.status).toBe(400);
    expect(JSON.stringify(created.json)).toContain('commit');
    expect(created.json['id']).toBeUndefined();
  });

  it('fails a task whose commit the repository does not have, naming it', async () => {
    const missing = 'f'.repeat(40);
    const { task } = await assembled({ repo: sample(), ref: 'main', commit: missing, request: 'Tidy up.' });
    expect(task.status).toBe('failed');
    expect(task.reason).toContain(missing);
  });
});
