/**
 * @module durable-objects/task-create
 * Storing a new task in its Task object, from arguments read with their schemas where they
 * arrived: the task row, the pull request entry it owes, and the alarm that assembles turn 0.
 * `create`'s arguments come from the API's task service as RPC arguments; a delivery's come as
 * its intake shard stored them (JSON text, handed on unread) and are read once, here, since that
 * is storage read back across deploys, possibly written by another version of this code.
 */
import type { AgentConfig } from '../src/context/agents.ts';
import type { TaskRequest, TaskStatus } from '../src/tasks/task-request.ts';
import { readIntakeEntry } from './intake-entry.ts';
import type { PendingEntry } from './pull-request-entry.ts';
import type { TaskListings } from './task-listings.ts';
import type { TaskStore } from './task-store.ts';

const DAY_MS = 86_400_000;

export type CreateResult = { id: string; status: TaskStatus; created: boolean };
export interface CreateOptions {
  /**
   * `with-assembly`: answer as soon as the task is stored; the tenant's index first hears of it
   * from the assembly the alarm starts (a webhook's accept path, which GitHub times). `now`
   * (the default): before answering, so the API's own task list shows what it just created.
   */
  indexReport?: 'now' | 'with-assembly';
  /** A review task's entry in its pull request's index, made from the first attempt (see pull-request-entry). */
  pullRequestEntry?: PendingEntry;
}

/** A task's arguments, each read with its schema. */
export interface ReadTask {
  request: TaskRequest;
  agent: AgentConfig;
  options: { indexReport?: CreateOptions['indexReport'] | undefined; pullRequestEntry?: PendingEntry | undefined };
}

export interface TaskCreateDeps {
  id: string;
  store: TaskStore;
  listings: TaskListings;
  retentionDays: number;
  setAlarm(at: number): Promise<void>;
  reportToIndex(): Promise<boolean>;
  /** Starts loading what the alarm assembles with (the wiring), while the alarm is on its way. */
  preload(): void;
}

/** A delivery's entry as its shard stored it, read; `refused` says why it cannot be (nothing is stored then). */
export function readDelivery(text: string): { task: ReadTask } | { refused: string } {
  try {
    return { task: readIntakeEntry(text) };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

/** Stores the task and arms its alarm; the caller made sure the object holds no task yet. */
export async function insertTask(deps: TaskCreateDeps, { request, agent, options }: ReadTask): Promise<CreateResult> {
  const now = Date.now();
  deps.store.insertTask(deps.id, request, now, now + deps.retentionDays * DAY_MS, agent);
  if (options.pullRequestEntry) deps.listings.owePullRequestEntry(options.pullRequestEntry);
  // Stored and armed: from here the task survives this isolate, and the alarm reports it.
  await deps.setAlarm(now);
  if (options.indexReport !== 'with-assembly') await deps.reportToIndex();
  // The alarm assembles turn 0 next: what it assembles with loads while the alarm is on its way
  // instead of after it (a delivery's create is its shard's, off GitHub's clock).
  deps.preload();
  return { id: deps.id, status: 'pending', created: true };
}
