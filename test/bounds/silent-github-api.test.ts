import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { SETTLE_GUARD_MS } from '../support/api.ts';
import { warmWorker } from '../support/warm-worker.ts';
import { createApiScope, githubFixture, type Fault } from '../support/github-api-client.ts';
import { BOUNDS_SCOPE } from './bindings.ts';
import { createHeld, expectAnswersWhileWaiting, holdDeadlinesEachTest, overdue, runRetries, type RemoteHolds } from './support.ts';

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
// read-ahead of a pinned commit) and REST (the ref, the tree, the blobs). `waitsOn`: the requests one
// attempt makes in that round and then waits on; the blobs are as many as the providers read at once.
const cases = [
  { round: 'resolving the ref with its read-ahead (GraphQL)', remote: 'never answers', faults: [silent('/graphql')], ref: 'main', step: resolving, waitsOn: 1 },
  { round: 'resolving the ref with its read-ahead (GraphQL)', remote: 'drips and never ends', faults: [dripping('/graphql')], ref: 'main', step: resolving, waitsOn: 1 },
  { round: 'reading a pinned commit ahead (GraphQL)', remote: 'never answers', faults: [silent('/graphql')], ref: fx.commits.head, step: reading, waitsOn: 1 },
  { round: 'resolving the ref (REST)', remote: 'never answers', faults: overRest(silent('/commits/main')), ref: 'main', step: resolving, waitsOn: 1 },
  { round: 'resolving the ref (REST)', remote: 'drips and never ends', faults: overRest(dripping('/commits/main')), ref: 'main', step: resolving, waitsOn: 1 },
  { round: 'the tree of a pinned commit (REST)', remote: 'never answers', faults: overRest(silent('/git/trees/')), ref: fx.commits.head, step: reading, waitsOn: 1 },
  { round: 'the tree of a pinned commit (REST)', remote: 'drips and never ends', faults: overRest(dripping('/git/trees/')), ref: fx.commits.head, step: reading, waitsOn: 1 },
  // Last, and on another commit: its tree is read and cached.
  {
    round: 'the files (REST blobs)',
    remote: 'drip and never end',
    faults: overRest(dripping('/git/blobs/')),
    ref: fx.commits.first,
    step: () => `running providers on ${repository()} at ${fx.commits.first}`,
    waitsOn: 'the providers\' reads',
  },
] as const;

/** Requests the API took to never finish (a stalled or dripping answer): `abandoned` once hung up on. */
const held = async () => (await scope.stats()).requests.filter((request) => request.abandoned !== undefined);

/**
 * Once the API holds every request of the attempt (`heldBefore`: what it held before the task), the
 * attempt waits on them: nothing else ends it. The blobs: providers wait on theirs from the moment
 * they run, and they run until the attempt ends (their deadlines are held too), so the attempt is
 * in that step once its providers run and the API holds a blob request more than it did when the
 * previous attempt ended (how many the providers read at once is theirs to decide).
 */
function apiHolds(heldBefore: number, waitsOn: number | string): RemoteHolds {
  let heldThen = heldBefore;
  return (attempt) =>
    vi.waitFor(
      async () => {
        const now = (await held()).length;
        if (typeof waitsOn === 'number') expect(now).toBe(heldBefore + attempt * waitsOn);
        else {
          expect(deadlines().providers.count).toBeGreaterThan(0);
          expect(now).toBeGreaterThan(heldThen);
        }
        heldThen = now;
      },
      { timeout: SETTLE_GUARD_MS },
    );
}

beforeAll(warmWorker);
const deadlines = holdDeadlinesEachTest();

describe('a GitHub API that never answers or drips', () => {
  it.each(cases.map((c) => [c.round, c.remote, c] as const))('fails the task at its deadline when %s %s, naming the host and the step, with bounded attempts, while the API keeps answering', async (_round, _remote, { faults, ref, step, waitsOn }) => {
    await scope.configure({ faults: [...faults] });
    const heldBefore = (await held()).length;
    const id = await createHeld({ repo: `${fx.owner}/${fx.repo}`, ref });
    const reason = overdue(step());
    const holds = apiHolds(heldBefore, waitsOn);
    await expectAnswersWhileWaiting(id, reason, deadlines(), holds);

    const failed = await runRetries(id, reason, deadlines(), holds);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, reason, commit: ref === 'main' ? null : ref, turns: [] });
    // The Worker hung up on every request it gave up on, rather than leaving it open (the API sees
    // each hang-up when its connection closes); a round's requests were one per attempt, and none
    // came after the last.
    await vi.waitFor(
      async () => {
        const ours = (await held()).slice(heldBefore);
        if (typeof waitsOn === 'number') expect(ours).toHaveLength(3 * waitsOn);
        expect(ours.filter((request) => request.abandoned === false)).toEqual([]);
      },
      { timeout: SETTLE_GUARD_MS },
    );
  });
});
