import { describe, expect, inject, it, vi } from 'vitest';
import { createApiScope, githubFixture, type Fault } from '../support/github-api-client.ts';
import { BOUNDS_SCOPE } from './bindings.ts';
import { createTask, expectAnswersWhileWaiting, overdue, runRetries, scheduledAlarm } from './support.ts';

const fx = githubFixture();
// This project's GITHUB_API_URL points into the scope; tests in this file run one after another.
const scope = createApiScope(BOUNDS_SCOPE);
const repository = () => `github:127.0.0.1:${inject('githubApiPort')}/${fx.owner}/${fx.repo}`;

/** Takes every matching request and never answers it, or answers and drips a body that never ends. */
const silent = (match: string): Fault => ({ status: 200, times: 1_000, match, stall: true });
const dripping = (match: string): Fault => ({ status: 200, times: 1_000, match, drip: true });
/** GraphQL refuses the read-ahead, so the task reads over the REST git-data API. */
const overRest = (fault: Fault): Fault[] => [{ status: 400, times: 1_000, match: '/graphql' }, fault];

const resolving = () => `resolving main of ${repository()}`;
const reading = () => `reading ${repository()} at ${fx.commits.head}`;

// Every GitHub round of a task: GraphQL (the ref's resolution with its read-ahead, or the
// read-ahead of a pinned commit) and REST (the ref, the tree, the blobs).
const cases = [
  { round: 'resolving the ref with its read-ahead (GraphQL)', remote: 'never answers', faults: [silent('/graphql')], ref: 'main', step: resolving, counted: '/graphql' },
  { round: 'resolving the ref with its read-ahead (GraphQL)', remote: 'drips and never ends', faults: [dripping('/graphql')], ref: 'main', step: resolving, counted: '/graphql' },
  { round: 'reading a pinned commit ahead (GraphQL)', remote: 'never answers', faults: [silent('/graphql')], ref: fx.commits.head, step: reading, counted: '/graphql' },
  { round: 'resolving the ref (REST)', remote: 'never answers', faults: overRest(silent('/commits/main')), ref: 'main', step: resolving, counted: '/commits/main' },
  { round: 'resolving the ref (REST)', remote: 'drips and never ends', faults: overRest(dripping('/commits/main')), ref: 'main', step: resolving, counted: '/commits/main' },
  { round: 'the tree of a pinned commit (REST)', remote: 'never answers', faults: overRest(silent('/git/trees/')), ref: fx.commits.head, step: reading, counted: '/git/trees/' },
  { round: 'the tree of a pinned commit (REST)', remote: 'drips and never ends', faults: overRest(dripping('/git/trees/')), ref: fx.commits.head, step: reading, counted: '/git/trees/' },
  // Last, and on another commit: its tree is read and cached.
  {
    round: 'the files (REST blobs)',
    remote: 'drip and never end',
    faults: overRest(dripping('/git/blobs/')),
    ref: fx.commits.first,
    step: () => `running providers on ${repository()} at ${fx.commits.first}`,
    counted: undefined,
  },
];

describe('a GitHub API that never answers or drips', () => {
  it.each(cases.map((c) => [c.round, c.remote, c] as const))('fails the task at its deadline when %s %s, naming the host and the step, with bounded attempts, while the API keeps answering', async (_round, _remote, { faults, ref, step, counted }) => {
    await scope.configure({ faults });
    const before = counted ? await scope.count(counted) : 0;
    const id = await createTask({ repo: `${fx.owner}/${fx.repo}`, ref });
    const reason = overdue(step());
    await expectAnswersWhileWaiting(id, reason);

    const failed = await runRetries(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, reason, commit: ref === 'main' ? null : ref, turns: [] });
    expect(await scheduledAlarm(id)).toBe(Date.parse(failed.expiresAt));
    // One request per attempt reached the remote, and none after the last.
    if (counted) expect((await scope.count(counted)) - before).toBe(3);
    // The Worker hung up on every request it gave up on, rather than leaving it open.
    await vi.waitFor(async () => expect((await scope.stats()).requests.filter((request) => request.abandoned === false)).toEqual([]), { timeout: 5_000 });
  });
});
