/**
 * Repository access decided by GitHub, through the REST API as people signed in with GitHub
 * (their access tokens from the real OAuth flow): what a reader, a pusher and an outsider may do
 * with tasks and knowledge, the installation's pull request tasks without a grant, GitHub asked
 * once per repository, and GitHub's failures and revocations as refusals that say so.
 */
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';

import { createApiScope, failGitHubReads, githubFixture, revokeGitHubUser } from '../support/github-api-client.ts';
import { githubWebRoot } from '../support/oauth-browser.ts';
import { signedInPerson } from '../support/person.ts';
import { E2E_SCOPE } from '../e2e/bindings.ts';
import { settledTask } from '../e2e/support.ts';
import { installationTenant } from '../e2e/support-checks.ts';
import { installationTaskOn, listedFor, settledAs } from './support.ts';

const fx = () => githubFixture();
const widgets = () => `${fx().owner}/${fx().repo}`;


describe('a person signed in with GitHub', () => {
  it('creates a task on a repository GitHub says they can read, as github-user:<id>, read through the App installation however they named it', async () => {
    const reader = await signedInPerson({ [widgets()]: 'read' }, { name: 'reader' });
    const named = `${githubWebRoot()}/${fx().owner.toUpperCase()}/${fx().repo}.git`;
    const created = await reader.api('POST', '/tasks', { repo: named, request: 'Explain the rules.' });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    const id = String(created.json['id']);
    expect(created.json['viewUrl']).toBe(`https://groundwork.test/tasks/${id}/view`);
    await settledAs(reader, id, 80_000);
    const task = TaskDescriptionSchema.parse((await reader.api('GET', `/tasks/${id}`)).json);
    expect(task).toMatchObject({ status: 'ready', commit: fx().commits.head, request: { tenant: reader.tenant, repo: widgets(), githubInstallationId: fx().installationId } });
    expect((await reader.api('GET', `/tasks/${id}/turns/0`)).status).toBe(200);
    expect((await reader.api('POST', `/tasks/${id}/mailbox`, { from: reader.login, text: 'And the skills?' })).status).toBe(201);
  }, 90_000);

  it("reads the installation's pull request tasks of repositories they can read without a grant, and may not change them", async () => {
    const reader = await signedInPerson({ [widgets()]: 'read' }, { name: 'reader' });
    const taskId = await installationTaskOn(fx().repo);
    expect(await settledAs(reader, taskId, 80_000)).toBe('ready');
    const read = await reader.api('GET', `/tasks/${taskId}`);
    expect(read.status).toBe(200);
    expect(read.json['request']).toMatchObject({ tenant: installationTenant(), origin: 'github' });
    expect((await reader.api('GET', `/tasks/${taskId}/turns/0`)).status).toBe(200);
    expect((await reader.api('GET', `/tasks/${taskId}/freshness`)).status).toBe(200);
    await listedFor(reader, widgets(), taskId, 10_000);
    const changed = await reader.api('POST', `/tasks/${taskId}/mailbox`, { from: reader.login, text: 'Mine now?' });
    expect(changed.status).toBe(403);
    expect(changed.json.error?.message).toContain(`task ${taskId} belongs to ${installationTenant()}`);
    // A pull request task is assembled first: the ceiling only catches a hang on a loaded machine.
  }, 90_000);

  it('is refused every task and listing of a repository GitHub says they cannot read: 404 for its tasks, 403 for naming it', async () => {
    const outsider = await signedInPerson({ [widgets()]: 'read' }, { name: 'outsider' });
    const hidden = await installationTaskOn('payments');
    await settledTask(hidden, installationTenant());
    const read = await outsider.api('GET', `/tasks/${hidden}`);
    expect(read.status).toBe(404);
    expect(read.json.error?.message).toBe(`no task ${hidden}`);
    const created = await outsider.api('POST', '/tasks', { repo: `${fx().owner}/payments`, request: 'Show me.' });
    expect(created.status).toBe(403);
    expect(created.json.error?.message).toContain(`cannot read ${fx().owner}/payments`);
    expect((await outsider.api('GET', `/tasks?repo=${fx().owner}/payments`)).status).toBe(403);
    const all = await outsider.api('GET', '/tasks?limit=100');
    expect((all.json['tasks'] as Array<{ repo: string }>).filter((row) => row.repo.toLowerCase().endsWith('/payments'))).toEqual([]);
  });

  it('may not use a repository GitHub cannot decide (another git host): 403 saying so', async () => {
    const reader = await signedInPerson({ [widgets()]: 'read' }, { name: 'reader' });
    const created = await reader.api('POST', '/tasks', { repo: `http://127.0.0.1:${inject('gitHttpPort')}/sample.git`, request: 'Explain.' });
    expect(created.status).toBe(403);
    expect(created.json.error?.message).toMatch(/GitHub repositories only/);
  });

  it("reads the repository's knowledge with read access and records it with push access, shared by everyone GitHub lets in", async () => {
    const repo = widgets();
    const reader = await signedInPerson({ [repo]: 'read' }, { name: 'reader' });
    const pusher = await signedInPerson({ [repo]: 'write' }, { name: 'pusher' });
    const outsider = await signedInPerson({ [`${fx().owner}/payments`]: 'read' }, { name: 'outsider' });
    const statement = `Releases are cut on Tuesdays (${crypto.randomUUID()}).`;
    const draft = { repo, kind: 'fact', statement, source: { uri: 'https://wiki.example.test/releases' } };
    const refused = await reader.api('POST', '/knowledge', draft);
    expect(refused.status).toBe(403);
    expect(refused.json.error?.message).toContain('needs push access');
    const recorded = await pusher.api('POST', '/knowledge', draft);
    expect(recorded.status).toBe(201);
    expect(recorded.json).toMatchObject({ statement, author: `${pusher.tenant}/${pusher.login}` });
    const id = String(recorded.json['id']);
    const listed = await reader.api('GET', `/knowledge?repo=${repo}`);
    expect((listed.json['items'] as Array<{ id: string }>).map((item) => item.id)).toContain(id);
    expect((await reader.api('GET', `/knowledge/${id}`)).status).toBe(200);
    expect((await reader.api('POST', `/knowledge/${id}/retire`, { reason: 'not mine to retire' })).status).toBe(403);
    expect((await outsider.api('GET', `/knowledge/${id}`)).status).toBe(404);
    expect((await outsider.api('GET', `/knowledge?repo=${repo}`)).status).toBe(403);
    expect((await pusher.api('POST', `/knowledge/${id}/retire`, { reason: 'moved to the wiki' })).status).toBe(200);
  });

  it('asks GitHub once per repository and keeps the answer: three reads, one request', async () => {
    const repo = `${fx().owner}/cache-${crypto.randomUUID().slice(0, 8)}`;
    const reader = await signedInPerson({ [repo]: 'read' }, { name: 'reader' });
    const scope = createApiScope(E2E_SCOPE);
    for (let i = 0; i < 3; i++) expect((await reader.api('GET', `/tasks?repo=${repo}`)).status).toBe(200);
    expect(await scope.count(`/repos/${repo}`)).toBe(1);
  });

  it('is refused with a 502 that says so when GitHub cannot answer, and let in once it can: a failure is never kept', async () => {
    const repo = `${fx().owner}/flaky-${crypto.randomUUID().slice(0, 8)}`;
    const reader = await signedInPerson({ [repo]: 'read' }, { name: 'reader' });
    await failGitHubReads(reader.login, 503);
    const refused = await reader.api('GET', `/tasks?repo=${repo}`);
    expect(refused.status).toBe(502);
    expect(refused.json.error?.message).toMatch(/GitHub could not say whether you may use .*nothing was allowed/);
    expect((await reader.api('GET', `/tasks?repo=${repo}`)).status).toBe(200);
  });

  it('is told to sign in again (401) once they revoke the App on GitHub', async () => {
    const reader = await signedInPerson({ [widgets()]: 'read' }, { name: 'revoker' });
    await revokeGitHubUser(reader.login);
    const refused = await reader.api('GET', `/tasks?repo=${fx().owner}/uncached-${crypto.randomUUID().slice(0, 8)}`);
    expect(refused.status).toBe(401);
    expect(refused.json.error?.message).toMatch(/sign in again/);
  });
});
