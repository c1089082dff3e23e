/**
 * @module test/auth/support
 * What the tests of people's access share: the App installation's pull request tasks on a
 * repository of the fixture's owner (delivered as GitHub sends them, each with a body of its own),
 * and waiting for a task as a person sees it, with a guard the calling test's own ceiling allows.
 */
import { expect } from 'vitest';
import { post, pullRequestOpened, signedDelivery, WEBHOOK_URL } from '../e2e/support.ts';
import type { Person } from '../support/person.ts';

/** A pull request task the App's installation starts on `repo` (assembled or failing later; not waited for). */
export async function installationTaskOn(repo: string): Promise<string> {
  const payload = pullRequestOpened({ repo });
  // A body of its own: deliveries are keyed by what their signature covers.
  payload.pull_request.title = `Access ${crypto.randomUUID()}`;
  const accepted = await post(WEBHOOK_URL, await signedDelivery(payload, { event: 'pull_request' }));
  expect(accepted.status).toBe(202);
  return (await accepted.json<{ taskId: string }>()).taskId;
}

/**
 * Polls `GET /tasks/:id` as `person` until assembly has ended. Assembly runs in the task's alarm,
 * so the test waits for its effect; `guardMs` only catches a hang (a pull request task on a loaded
 * machine can take most of a minute), within a test given a longer ceiling for it.
 */
export async function settledAs(person: Person, id: string, guardMs: number): Promise<string> {
  const deadline = Date.now() + guardMs;
  for (;;) {
    const status = String((await person.api('GET', `/tasks/${id}`)).json['status']);
    if (status === 'ready' || status === 'failed') return status;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${status} after ${guardMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls `GET /tasks?repo=` as `person` until task `id` is listed (its index hears of it when assembly starts). */
export async function listedFor(person: Person, repo: string, id: string, guardMs: number): Promise<void> {
  const deadline = Date.now() + guardMs;
  for (;;) {
    const listed = await person.api('GET', `/tasks?repo=${encodeURIComponent(repo)}&limit=100`);
    if ((listed.json['tasks'] as Array<{ id: string }>).some((row) => row.id === id)) return;
    if (Date.now() > deadline) throw new Error(`task ${id} not listed for ${person.login} after ${guardMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
