import { describe, expect, inject, it, vi } from 'vitest';
import type { SeenRequest } from '../setup/git-http-server.ts';
import { createTask, expectAnswersWhileWaiting, overdue, runRetries, scheduledAlarm } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const head = () => inject('gitHttpFixtures').sample.head;

// Every smart-HTTP round of a task, against a host that takes the request and never answers, or
// answers and never finishes: the ref listing (ls-refs) and the pack (upload-pack).
const cases = [
  { round: 'listing refs', remote: 'never answers', path: '_silent', ref: undefined, step: (repo: string) => `resolving HEAD of ${repo}` },
  { round: 'listing refs', remote: 'drips and never ends', path: '_drip', ref: () => 'main', step: (repo: string) => `resolving main of ${repo}` },
  { round: 'the pack of a pinned commit', remote: 'never comes', path: '_silent-pack', ref: head, step: (repo: string) => `reading ${repo} at ${head()}` },
  { round: 'the pack of a pinned commit', remote: 'drips and never ends', path: '_drip-pack', ref: head, step: (repo: string) => `reading ${repo} at ${head()}` },
];

async function seen(tag: string): Promise<SeenRequest[]> {
  const response = await fetch(`${base()}/_control/seen/${tag}`);
  return response.json<SeenRequest[]>();
}

describe('a git host that never answers or drips', () => {
  it.each(cases.map((c) => [c.round, c.remote, c] as const))('fails the task at its deadline when %s %s, naming the host and the step, with bounded attempts, while the API keeps answering', async (_round, _remote, { path, ref, step }) => {
    // Tagged, so the server records this test's requests and whether each was hung up on.
    const tag = crypto.randomUUID();
    const repo = `${base()}/_tag/${tag}/${path}/sample.git`;
    const id = await createTask({ repo, ...(ref ? { ref: ref() } : {}) });
    const reason = overdue(step(repo));
    await expectAnswersWhileWaiting(id, reason);

    const failed = await runRetries(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, reason, commit: ref === head ? head() : null, turns: [] });
    // What is left is retention cleanup, not a fourth attempt.
    expect(await scheduledAlarm(id)).toBe(Date.parse(failed.expiresAt));
    // The Worker hung up on every request it gave up on, rather than leaving it open. The attempts
    // are counted by the task above: on a loaded machine an attempt's deadline can pass before its
    // request reaches the host, so the host may see fewer than three.
    await vi.waitFor(
      async () => {
        const requests = await seen(tag);
        expect(requests.length).toBeGreaterThanOrEqual(1);
        expect(requests.filter((request) => !request.closed)).toEqual([]);
      },
      { timeout: 5_000 },
    );
  });
});
