import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';
import { FreshnessReportSchema } from '../../src/freshness/report.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { gitBlobOid } from '../support/memory-tree.ts';
import { createTestRemote, type TestRemote } from '../support/git-remote.ts';

const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));

const FILES = {
  'AGENTS.md': '# Rules\n\nRun the tests.\n',
  'services/auth/AGENTS.md': '# Auth\n\nNever log tokens.\n',
  '.agents/skills/tdd/SKILL.md': '---\nname: tdd\ndescription: Write the failing test first.\n---\nRed, green, refactor.\n',
  '.agents/skills/review/SKILL.md': '---\nname: review\ndescription: Review a change.\n---\nRead the diff twice.\n',
  'README.md': 'An app.\n',
};

/** A ready task on a repository of its own, pinned at `main`, working in services/auth, with the tdd skill selected. */
async function readyTask(remote: TestRemote): Promise<string> {
  const created = await api('POST', '/tasks', { body: { repo: remote.url, ref: 'main', cwd: 'services/auth', request: 'Fix the login bug. Use $tdd.' } });
  expect(created.status).toBe(202);
  const id = String(created.json['id']);
  const task = TaskDescriptionSchema.parse(await waitForTask(id, settled));
  expect(task).toMatchObject({ status: 'ready', commit: remote.first });
  return id;
}

async function beginTurn(id: string, turn: number): Promise<AssembledTurn> {
  const res = await api('POST', `/tasks/${id}/turns`, { body: { turn } });
  expect(res.status).toBe(200);
  return AssembledTurnSchema.parse(res.json);
}

async function readBack(id: string) {
  const res = await api('GET', `/tasks/${id}/freshness`);
  expect(res.status).toBe(200);
  return FreshnessReportSchema.parse(res.json);
}

async function transcriptIds(id: string): Promise<string[]> {
  const rows = await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec<{ item_id: string }>('SELECT item_id FROM transcript ORDER BY seq').toArray());
  return rows.map((row) => row.item_id);
}

async function turnRows(id: string): Promise<number> {
  const row = await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec('SELECT COUNT(*) AS n FROM turns').one());
  return Number(row['n']);
}

describe('freshness on later turns, through the Worker and the Task object', () => {
  it('appends one local:context:1 naming AGENTS.md as changed after a push, and the read-back says changed', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    const changed = '# Rules\n\nRun the tests, then the linter.\n';
    const head = await remote.push({ 'AGENTS.md': changed, '.agents/skills/tdd/SKILL.md': null, '.agents/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Ship it.\n---\nShip.\n' });

    const turn = await beginTurn(id, 1);
    const added = turn.items.filter((item) => item.id.startsWith('local:context:'));
    expect(added.map((item) => item.id)).toEqual(['local:context:1']);
    const content = added[0]?.type === 'context' ? added[0].content : '';
    const [oldBlob, newBlob] = [await gitBlobOid(FILES['AGENTS.md']), await gitBlobOid(changed)];
    expect(content).toContain(`main moved ${remote.first.slice(0, 7)} -> ${head.slice(0, 7)} since your context was read at ${remote.first.slice(0, 7)}.`);
    expect(content).toContain(`- AGENTS.md: changed (blob ${oldBlob.slice(0, 7)} -> ${newBlob.slice(0, 7)})`);
    expect(content).toContain('- skill tdd (.agents/skills/tdd/SKILL.md): deleted');
    expect(content).toContain('- skills index (.agents/skills): changed: skill deploy added, skill tdd deleted');
    expect(content).toContain('- services/auth/AGENTS.md: unchanged');
    expect(content).toMatch(/^<groundwork-context boundary="[0-9a-f]{16}" provider="freshness" category="system" title="Freshness: main moved" source="groundwork:freshness" freshness="volatile">/);
    expect(turn.providers.find((p) => p.name === 'freshness')).toMatchObject({ outcome: 'included' });
    expect(turn.entries).toEqual([expect.objectContaining({ provider: 'freshness', source: { uri: 'groundwork:freshness', revision: head }, freshness: 'volatile' })]);

    const report = await readBack(id);
    expect(report).toMatchObject({ commit: remote.first, ref: 'main', current: head, moved: true });
    expect(report.sources.find((s) => s.path === 'AGENTS.md')).toEqual({
      provider: 'rules',
      kind: 'file',
      title: 'AGENTS.md',
      path: 'AGENTS.md',
      revision: remote.first,
      blob: oldBlob,
      status: 'changed',
      currentBlob: newBlob,
    });
    expect(report.sources.map((s) => [s.path, s.status])).toEqual([
      ['AGENTS.md', 'changed'],
      ['services/auth/AGENTS.md', 'unchanged'],
      ['.agents/skills', 'changed'],
      ['.agents/skills/tdd/SKILL.md', 'deleted'],
    ]);
    // The read-back wrote nothing: no turn, no item.
    expect(await turnRows(id)).toBe(2);
    expect(await transcriptIds(id)).toEqual(['local:task', 'local:context:1']);
  });

  it('appends nothing on turn 1 when nothing was pushed, and the read-back says unchanged', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    const turn = await beginTurn(id, 1);
    expect(turn.items.map((item) => item.id)).toEqual(['local:task']);
    expect(turn.providers.find((p) => p.name === 'freshness')).toMatchObject({ outcome: 'empty', reason: `main has not moved from ${remote.first.slice(0, 7)}` });
    expect(await transcriptIds(id)).toEqual(['local:task']);

    const report = await readBack(id);
    expect(report).toMatchObject({ commit: remote.first, current: remote.first, moved: false });
    expect(report.sources.every((s) => s.status === 'unchanged')).toBe(true);
    expect(report.sources.map((s) => s.path)).toEqual(['AGENTS.md', 'services/auth/AGENTS.md', '.agents/skills', '.agents/skills/tdd/SKILL.md']);
  });

  it('appends nothing when the branch moved but no source the model was given changed', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    const head = await remote.push({ 'README.md': 'An app, now documented.\n', 'docs/guide.md': 'Guide.\n' });
    const turn = await beginTurn(id, 1);
    expect(turn.items.map((item) => item.id)).toEqual(['local:task']);
    expect(turn.providers.find((p) => p.name === 'freshness')?.reason).toBe(
      `main moved ${remote.first.slice(0, 7)} -> ${head.slice(0, 7)}; none of the 4 sources the model was given changed and the rules that apply are the same`,
    );
    const report = await readBack(id);
    expect(report).toMatchObject({ current: head, moved: true });
    expect(report.sources.every((s) => s.status === 'unchanged')).toBe(true);
  });

  it('announces a move once, and compares a later move from the commit it announced', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    const second = await remote.push({ 'AGENTS.md': '# Rules\n\nv2\n' });
    expect((await beginTurn(id, 1)).items.map((item) => item.id)).toEqual(['local:task', 'local:context:1']);
    // Nothing new: the model already knows about `second`.
    expect((await beginTurn(id, 2)).items.map((item) => item.id)).toEqual(['local:task', 'local:context:1']);

    const third = await remote.push({ 'services/auth/AGENTS.md': '# Auth\n\nRotate keys.\n' });
    const turn = await beginTurn(id, 3);
    const item = turn.items.at(-1);
    expect(item?.id).toBe('local:context:3');
    const content = item?.type === 'context' ? item.content : '';
    expect(content).toContain(`main moved ${second.slice(0, 7)} -> ${third.slice(0, 7)} since the last freshness notice (${second.slice(0, 7)}).`);
    expect(content).toContain('- services/auth/AGENTS.md: changed');
    // AGENTS.md did not change since the notice that announced it.
    expect(content).toContain('- AGENTS.md: unchanged');

    // The read-back compares with what was pinned, not with the last notice.
    const report = await readBack(id);
    expect(report.sources.filter((s) => s.status === 'changed').map((s) => s.path)).toEqual(['AGENTS.md', 'services/auth/AGENTS.md']);
  });

  it('repairs a crash between the turn record and its item from the record, without checking again', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    await remote.push({ 'AGENTS.md': '# Rules\n\nChanged.\n' });
    const first = await beginTurn(id, 1);
    // The state a crash after the turn record leaves: the record holds the item, the transcript does not.
    await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec("DELETE FROM transcript WHERE item_id = 'local:context:1'"));
    // A later push must not leak into the repaired turn: the item comes from the record.
    await remote.push({ 'AGENTS.md': '# Rules\n\nChanged again.\n' });

    const repaired = await beginTurn(id, 1);
    expect(repaired).toEqual(first);
    expect(await transcriptIds(id)).toEqual(['local:task', 'local:context:1']);
  });

  it('answers 404 to another tenant and 409 before the commit is pinned', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    const other = await api('GET', `/tasks/${id}/freshness`, { tenant: 'globex' });
    expect(other.status).toBe(404);
    expect(other.json.error).toMatchObject({ code: 'not_found' });
    expect((await api('POST', `/tasks/${id}/freshness`)).status).toBe(405);

    const pending = await api('POST', '/tasks', { body: { repo: remote.url, ref: 'no-such-branch', request: 'x' } });
    const pendingId = String(pending.json['id']);
    await waitForTask(pendingId, settled);
    const conflict = await api('GET', `/tasks/${pendingId}/freshness`);
    expect(conflict.status).toBe(409);
    expect(conflict.json.error?.message).toBe('the task has not pinned a commit yet (it is failed)');
  });
});
