import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { CheckRecordSchema, type CheckRecord } from '../../src/checks/result.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, settled, waitForTask, type Tenant } from '../support/api.ts';
import { createTestRemote, type TestRemote } from '../support/git-remote.ts';
import { daysFromToday, remember, setReviewDate } from '../knowledge/support.ts';

const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));
const short = (sha: string) => sha.slice(0, 7);

const FILES = { 'AGENTS.md': '# Rules\n\nRun the tests.\n', 'docs/deploy.md': 'Deploy with make ship.\n', 'README.md': 'An app.\n' };

async function readyTask(remote: TestRemote, body: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/tasks', { body: { repo: remote.url, ref: 'main', request: 'Fix the login bug.', ...body } });
  expect(created.status).toBe(202);
  const id = String(created.json['id']);
  expect(await waitForTask(id, settled)).toMatchObject({ status: 'ready' });
  return id;
}

async function check(id: string, body: unknown, tenant: Tenant = 'acme'): Promise<CheckRecord> {
  const res = await api('POST', `/tasks/${id}/checks`, { body, tenant });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return CheckRecordSchema.parse(res.json);
}

/** What a check must never change: the transcript and every stored turn (digests included). */
async function ledger(id: string): Promise<{ transcript: string[]; turns: string[] }> {
  return runInDurableObject(stubOf(id), (_, state) => ({
    transcript: state.storage.sql.exec<{ item: string }>('SELECT item FROM transcript ORDER BY seq').toArray().map((row) => row.item),
    turns: state.storage.sql.exec<{ record: string }>('SELECT record FROM turns ORDER BY turn').toArray().map((row) => row.record),
  }));
}

describe('push before pushing, for a git URL task', () => {
  it('says go while main is where the task was pinned and stop after someone pushed, and says the push creates a new branch', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    expect(await check(id, { action: 'push' })).toMatchObject({
      id: 1,
      action: 'push',
      verdict: 'go',
      subject: { repository: remote.url, ref: 'main', commit: remote.first },
      reasons: [`main is still at ${short(remote.first)} on the remote, the commit you built on`],
      details: { branch: 'main', builtOn: remote.first, remote: remote.first, exists: true, moved: false },
    });
    const theirs = await remote.push({ 'README.md': 'An app, pushed by someone else.\n' });
    expect(await check(id, { action: 'push' })).toMatchObject({
      verdict: 'stop',
      reasons: [`someone else pushed: main is at ${short(theirs)} on the remote, not ${short(remote.first)} you built on`],
      details: { remote: theirs, moved: true },
    });
    // The host says it built on the new tip: nothing moved since then.
    expect(await check(id, { action: 'push', commit: theirs })).toMatchObject({ verdict: 'go', subject: { commit: theirs } });
    expect(await check(id, { action: 'push', branch: 'fix-login' })).toMatchObject({ verdict: 'go', reasons: ['fix-login does not exist on the remote yet: pushing creates it'], details: { exists: false } });
  });
});

describe('report-ci for a task that is not on GitHub', () => {
  it('says unknown with the reason: only GitHub has checks to read', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    expect(await check(id, { action: 'report-ci' })).toMatchObject({
      verdict: 'unknown',
      subject: { ref: 'main', commit: remote.first },
      reasons: [`${remote.url} is not a GitHub repository (owner/name): only GitHub has check runs and statuses to read, so nothing here says CI passed on ${short(remote.first)}`],
      details: { commit: remote.first, headOf: 'main', currentHead: null, isHead: null, ci: null },
    });
  });
});

describe('apply-knowledge before acting on what was remembered', () => {
  it('says each rendered object holds, then stop for one whose cited file changed, one retired, one edited and one past its review date', async () => {
    const remote = await createTestRemote(FILES);
    const cites = (path: string) => ({ uri: `${remote.url}#${path}`, path, revision: remote.first });
    const rules = await remember({ repo: remote.url, statement: 'Tests run before every push.', source: cites('AGENTS.md') });
    const deploy = await remember({ repo: remote.url, statement: 'Deploys go through make ship.', source: cites('docs/deploy.md') });
    const style = await remember({ repo: remote.url, statement: 'Use tabs.' });
    const review = await remember({ repo: remote.url, statement: 'The README is short.', source: cites('README.md') });
    const id = await readyTask(remote);

    const fresh = await check(id, { action: 'apply-knowledge' });
    expect(fresh).toMatchObject({ verdict: 'go', subject: { ref: 'main', commit: remote.first }, details: { ref: 'main', current: remote.first, unchecked: 0 } });
    expect(fresh.details).toMatchObject({ objects: expect.arrayContaining([expect.objectContaining({ id: rules.id, verdict: 'holds', store: 'current', source: expect.objectContaining({ status: 'unchanged', path: 'AGENTS.md' }) })]) });
    expect(fresh.reasons).toContain(`fact ${style.id} holds: current in the store, review by ${style.reviewBy}, it cites no path@revision`);

    const head = await remote.push({ 'AGENTS.md': '# Rules\n\nRun the tests and the linter.\n' });
    expect((await api('POST', `/knowledge/${deploy.id}/retire`, { body: { reason: 'we deploy with CI now' } })).status).toBe(200);
    const edited = await api('PATCH', `/knowledge/${style.id}`, { body: { statement: 'Use spaces.' } });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    await setReviewDate(review.id, daysFromToday(-1));

    const stale = await check(id, { action: 'apply-knowledge' });
    expect(stale.verdict).toBe('stop');
    expect(stale.details).toMatchObject({ current: head });
    expect(stale.reasons).toEqual(
      expect.arrayContaining([
        `fact ${rules.id} cites AGENTS.md@${short(remote.first)}, which changed: main at ${short(head)} has another version`,
        `fact ${deploy.id} was retired since (we deploy with CI now)`,
        `fact ${style.id} was edited since: version 2 (${String(edited.json['id'])}) replaced it`,
        `fact ${review.id} is past its review date ${daysFromToday(-1)}`,
      ]),
    );
    expect(stale.reasons).toHaveLength(4);
  });

  it('says unknown when no knowledge reached the model', async () => {
    const id = await readyTask(await createTestRemote(FILES));
    expect(await check(id, { action: 'apply-knowledge' })).toMatchObject({ verdict: 'unknown', reasons: ['no knowledge reached the model in this task: there is nothing here to re-verify'], details: { objects: [] } });
  });
});

describe('the record of checks on the task', () => {
  it('is shown by GET /tasks/:id newest first, keeps the last 50 and counts the dropped, and never changes the transcript or a digest', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } })).status).toBe(200);
    const before = await ledger(id);

    const first = await check(id, { action: 'push' });
    // A git URL task answers report-ci without reading anything: cheap enough to pass the bound.
    for (let i = 0; i < 51; i++) await check(id, { action: 'report-ci' });
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.checks).toMatchObject({ count: 52, dropped: 2 });
    expect(task.checks.recent).toHaveLength(50);
    expect(task.checks.recent.map((entry) => entry.id)).toEqual(Array.from({ length: 50 }, (_, i) => 52 - i));
    expect(task.checks.recent[0]).toEqual({ id: 52, action: 'report-ci', verdict: 'unknown', checkedAt: expect.any(String), subject: { repository: remote.url, ref: 'main', commit: remote.first }, reasons: [expect.stringContaining('is not a GitHub repository')] });
    expect(first.id).toBe(1);

    expect(await ledger(id)).toEqual(before);
    // Checks are not turns: the next turn is still 2, and it is assembled as if no check was made.
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 2 } })).status).toBe(200);
  });
});

describe('who may ask, and what a bad request gets', () => {
  // A tenant granted the owner may ask too (it is a read, though recorded): see test/e2e/github-checks.
  it('answers the owner and hides the task from a tenant the owner granted nothing', async () => {
    const sample = `http://127.0.0.1:${inject('gitHttpPort')}/sample.git`;
    const created = await api('POST', '/tasks', { tenant: 'globex', body: { repo: sample, request: 'Explain the build.' } });
    const id = String(created.json['id']);
    // Assembled by the test's own begin of turn 0, answered when the attempt has ended (the alarm's, if
    // it came first, is joined), rather than waited for within a time a loaded machine can miss.
    expect((await api('POST', `/tasks/${id}/turns`, { tenant: 'globex', body: { turn: 0 } })).status).toBe(200);
    const denied = await api('POST', `/tasks/${id}/checks`, { body: { action: 'push' } });
    expect(denied.status).toBe(404);
    expect(denied.json.error?.message).toBe(`no task ${id}`);
    expect((await api('POST', `/tasks/${id}/checks`, { tenant: 'globex', body: { action: 'push' } })).status).toBe(200);
    // Nothing was recorded for the refused one.
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`, { tenant: 'globex' })).json).checks.count).toBe(1);
    expect((await api('POST', '/tasks/not-a-task/checks', { body: { action: 'push' } })).status).toBe(404);
  });

  it('answers 400 naming the field for bad input and records nothing; 409 for merge without a pull request; 405 for other methods', async () => {
    const remote = await createTestRemote(FILES);
    const id = await readyTask(remote);
    const refused = async (body: unknown) => {
      const res = await api('POST', `/tasks/${id}/checks`, { body });
      expect(res.status).toBe(400);
      return res.json.error?.message;
    };
    expect(await refused({})).toBe('action: must be one of push, report-ci, merge, apply-knowledge');
    expect(await refused({ action: 'deploy' })).toBe('action: must be one of push, report-ci, merge, apply-knowledge');
    expect(await refused({ action: 'push', commit: 'main' })).toBe('commit: must be a 40-hex commit');
    expect(await refused({ action: 'push', branch: 'a..b' })).toBe('branch: must be a branch name');
    expect(await refused({ action: 'push', branch: remote.first })).toBe('branch: must be a branch name, not a commit (give a commit as commit)');
    expect(await refused({ action: 'report-ci', stopIfBaseMoved: true })).toBe('stopIfBaseMoved: does not apply to report-ci');
    expect(await refused({ action: 'apply-knowledge', commit: remote.first })).toBe('commit: does not apply to apply-knowledge');
    expect(await refused({ action: 'push', extra: 1 })).toMatch(/^\(root\): |extra/);
    expect(await refused('"push"')).toMatch(/^\(root\): .*expected object/);

    const merge = await api('POST', `/tasks/${id}/checks`, { body: { action: 'merge' } });
    expect(merge.status).toBe(409);
    expect(merge.json.error?.message).toBe('merge: this task is not about a pull request; there is nothing to merge');
    const get = await api('GET', `/tasks/${id}/checks`);
    expect(get.status).toBe(405);
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json).checks).toEqual({ count: 0, dropped: 0, recent: [] });
  });

  it('answers 409 before the task has pinned a commit', async () => {
    const silent = `http://127.0.0.1:${inject('gitHttpPort')}/_silent/sample.git`;
    const created = await api('POST', '/tasks', { body: { repo: silent, request: 'Explain the build.' } });
    const id = String(created.json['id']);
    const res = await api('POST', `/tasks/${id}/checks`, { body: { action: 'push' } });
    expect(res.status).toBe(409);
    expect(res.json.error?.message).toMatch(/^the task has not pinned a commit yet \(it is (pending|assembling)\); there is nothing to check against$/);
  });
});
