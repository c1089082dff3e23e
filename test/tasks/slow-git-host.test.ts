import { describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const fixtures = () => inject('gitHttpFixtures');

describe('a slow git host through the Task object', () => {
  it('still gives the model its rules when each request outlasts every provider’s timeout: the pack loads under the assembly’s deadline', async () => {
    // Named by commit, so nothing is resolved: two slow requests (refs, pack) fetch the commit.
    const repo = `http://127.0.0.1:${inject('gitHttpPort')}/_slow/sample.git`;
    const created = await api('POST', '/tasks', { body: { repo, ref: fixtures().sample.head, request: 'Explain the build.' } });
    expect(created.status).toBe(202);
    const id = String(created.json['id']);
    expect(await waitForTask(id, settled, 25_000)).toMatchObject({ status: 'ready', attempts: 1 });

    const turn = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    expect(turn.providers.map((p) => [p.name, p.outcome])).toEqual([
      ['freshness', 'empty'],
      ['host', 'empty'],
      ['system', 'included'],
      ['task-facts', 'capability-gated'],
      ['rules', 'included'],
      // The sample keeps its skills outside the default roots: read, and none found.
      ['skills', 'empty'],
      ['history', 'empty'],
      ['memory', 'empty'],
    ]);
    const [task] = turn.items;
    if (task?.type !== 'message') throw new Error('no task item');
    expect(task.content).not.toMatch(/<groundwork-notice[^>]* provider="(rules|skills)"/);
    expect(task.content).toContain('Run `npm test` before committing.');
    // The commit's facts came with the pack too, so the system provider has its date.
    expect(task.content).toContain(`Commit: ${fixtures().sample.head}, committed ${fixtures().sample.headCommittedAt}\nWorking directory: . (the repository root)`);
  });
});
