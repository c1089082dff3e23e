import { describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { withoutBoundaries } from '../support/sections.ts';

const fixtures = () => inject('gitHttpFixtures');

describe('honest notices through the Task object', () => {
  it('tells the model that rules and skills could not be read when the repository is too slow for them, and keeps the pin', async () => {
    // Named by commit, so nothing is resolved: every read is of the slow repository itself.
    const repo = `http://127.0.0.1:${inject('gitHttpPort')}/_slow/sample.git`;
    const created = await api('POST', '/tasks', { body: { repo, ref: fixtures().sample.head, request: 'Explain the build.' } });
    expect(created.status).toBe(202);
    const id = String(created.json['id']);
    expect(await waitForTask(id, settled, 25_000)).toMatchObject({ status: 'ready' });

    const turn = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    expect(turn.providers.map((p) => [p.name, p.outcome, p.reason])).toEqual([
      ['system', 'included', 'commit date and repository inventory left out: not read within 3000 ms'],
      ['task-facts', 'capability-gated', 'github:api is not available for this task'],
      ['rules', 'timed-out', 'no result within 5000 ms'],
      ['skills', 'timed-out', 'no result within 5000 ms'],
      ['memory', 'empty', undefined],
    ]);
    const [task] = turn.items;
    if (task?.type !== 'message') throw new Error('no task item');
    const taskPart = withoutBoundaries(task.parts?.find((part) => part.stability === 'task' && part.text.includes('groundwork-notice'))?.text ?? '');
    expect(taskPart).toContain(
      '<groundwork-notice provider="rules">\nRepository rules (AGENTS.md and similar files) could not be read (timed out after 5000 ms). Do not say you followed the repository’s rules; say they were unavailable.\n</groundwork-notice>',
    );
    expect(taskPart).toContain(
      '<groundwork-notice provider="skills">\nRepository skills could not be read (timed out after 5000 ms). Do not say you used the repository’s skills; say they were unavailable.\n</groundwork-notice>',
    );
    expect(task.content).toContain(`Commit: ${fixtures().sample.head}\nWorking directory: . (the repository root)`);
    expect(task.content).not.toContain('Run `npm test` before committing.');
  });
});
