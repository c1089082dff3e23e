import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { SETTLE_GUARD_MS } from '../support/api.ts';
import { warmWorker } from '../support/warm-worker.ts';
import { createHeld, expectAnswersWhileWaiting, gitHostHolds, holdDeadlinesEachTest, overdue, runRetries, seenByGitHost } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const head = () => inject('gitHttpFixtures').sample.head;

// Every smart-HTTP round of a task, against a host that takes the request and never answers, or
// answers and never finishes: the ref listing (ls-refs) and the pack (upload-pack). `waitsOn`: the
// requests one attempt makes in that round and then waits on (a tag and a branch named `main` are
// asked for at once).
const cases = [
  { round: 'listing refs', remote: 'never answers', path: '_silent', ref: undefined, waitsOn: 1, step: (repo: string) => `resolving HEAD of ${repo}` },
  { round: 'listing refs', remote: 'drips and never ends', path: '_drip', ref: () => 'main', waitsOn: 2, step: (repo: string) => `resolving main of ${repo}` },
  { round: 'the pack of a pinned commit', remote: 'never comes', path: '_silent-pack', ref: head, waitsOn: 1, step: (repo: string) => `reading ${repo} at ${head()}` },
  { round: 'the pack of a pinned commit', remote: 'drips and never ends', path: '_drip-pack', ref: head, waitsOn: 1, step: (repo: string) => `reading ${repo} at ${head()}` },
];

beforeAll(warmWorker);
const deadlines = holdDeadlinesEachTest();

describe('a git host that never answers or drips', () => {
  it.each(cases.map((c) => [c.round, c.remote, c] as const))('fails the task at its deadline when %s %s, naming the host and the step, with bounded attempts, while the API keeps answering', async (_round, _remote, { path, ref, waitsOn, step }) => {
    // Tagged, so the server records this test's requests, which it holds, and whether each was hung up on.
    const tag = crypto.randomUUID();
    const repo = `${base()}/_tag/${tag}/${path}/sample.git`;
    const id = await createHeld({ repo, ref: ref?.() });
    const reason = overdue(step(repo));
    await expectAnswersWhileWaiting(id, reason, deadlines(), gitHostHolds(tag, waitsOn));

    const failed = await runRetries(id, reason, deadlines(), gitHostHolds(tag, waitsOn));
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, reason, commit: ref === head ? head() : null, turns: [] });
    // The Worker hung up on every request it gave up on rather than leaving it open; the host sees
    // each hang-up when its connection closes.
    await vi.waitFor(
      async () => {
        const held = (await seenByGitHost(tag)).filter((request) => request.held);
        expect(held).toHaveLength(3 * waitsOn);
        expect(held.filter((request) => !request.closed)).toEqual([]);
      },
      { timeout: SETTLE_GUARD_MS },
    );
  });
});
