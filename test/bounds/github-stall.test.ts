import { describe, expect, inject, it } from 'vitest';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { BOUNDS_ASSEMBLY_TIMEOUT_MS, BOUNDS_SCOPE } from './bindings.ts';
import { runRetries } from './support.ts';

const fx = githubFixture();
// This project's GITHUB_API_URL points into the scope; tests in this file run one after another.
const scope = createApiScope(BOUNDS_SCOPE);
const repository = () => `github:127.0.0.1:${inject('githubApiPort')}/${fx.owner}/${fx.repo}`;
const overdue = (step: string) => `turn 0 was not assembled within ${BOUNDS_ASSEMBLY_TIMEOUT_MS} ms (ASSEMBLY_TIMEOUT_MS): still ${step}`;

async function create(ref: string): Promise<string> {
  const created = await api('POST', '/tasks', { body: { repo: `${fx.owner}/${fx.repo}`, ref, request: 'Explain the build.' } });
  expect(created.status).toBe(202);
  return String(created.json['id']);
}

describe('a GitHub API that stops answering', () => {
  it('fails the task at its deadline when resolving the ref (with its read-ahead, over GraphQL) gets no answer, naming the host and the step', async () => {
    await scope.configure({ faults: [{ status: 200, times: 3, match: '/graphql', stall: true }] });
    const id = await create('main');
    await waitForTask(id, settled);
    const failed = await runRetries(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, reason: overdue(`resolving main of ${repository()}`), commit: null, turns: [] });
    expect(await scope.count('/graphql')).toBe(3);
  });

  it('fails the task at its deadline when the REST tree of a pinned commit gets no answer', async () => {
    // GraphQL refuses the read-ahead, so the snapshot falls back to the git-data API.
    await scope.configure({ faults: [{ status: 400, times: 3, match: '/graphql' }, { status: 200, times: 3, match: '/git/trees/', stall: true }] });
    const id = await create(fx.commits.head);
    await waitForTask(id, settled);
    const failed = await runRetries(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, reason: overdue(`reading ${repository()} at ${fx.commits.head}`), turns: [] });
  });
});
