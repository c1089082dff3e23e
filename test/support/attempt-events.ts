/**
 * @module test/support/attempt-events
 * What the tests of a GitHub App task's first attempt share: the task they create (the fixture's
 * repository read as its installation) and the events its order is checked by, pushed to `events`
 * as they happen in this isolate: `index` as the task's listings are told (TaskListings `report`)
 * and `turn` for each zero-delay timer (a turn of the event loop left to I/O, request-signal's
 * `turns`). Spies, restored by the caller's `vi.restoreAllMocks()`.
 */
import { vi } from 'vitest';
import { TaskListings } from '../../durable-objects/task-listings.ts';
import type { TaskRequestInput } from '../../src/tasks/task-request.ts';
import type { GitHubFixture } from './github-api-client.ts';

/** A review task on the fixture's repository, read as the fixture's installation. */
export function appTaskInput(fx: Pick<GitHubFixture, 'owner' | 'repo' | 'installationId'>): TaskRequestInput {
  return { origin: 'github', tenant: `github:${fx.installationId}`, repo: `${fx.owner}/${fx.repo}`, ref: 'main', request: 'Review the change.', githubInstallationId: fx.installationId };
}

export function watchIndexAndTurns(events: string[]): void {
  const report = TaskListings.prototype.report;
  vi.spyOn(TaskListings.prototype, 'report').mockImplementation(function (this: TaskListings, task) {
    events.push('index');
    return report.call(this, task);
  });
  const timer = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, ms?: number) => {
    if (!ms) events.push('turn');
    return timer(handler, ms);
  }) as typeof setTimeout);
}
