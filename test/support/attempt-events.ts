/**
 * @module test/support/attempt-events
 * Events a first attempt's order is checked by, pushed to `events` as they happen in this isolate:
 * `index` as the task's listings are told (TaskListings `report`) and `turn` for each zero-delay
 * timer (a turn of the event loop left to I/O, request-signal's `turns`). Spies, restored by the
 * caller's `vi.restoreAllMocks()`.
 */
import { vi } from 'vitest';
import { TaskListings } from '../../durable-objects/task-listings.ts';

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
