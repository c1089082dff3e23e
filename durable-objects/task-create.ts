/**
 * @module durable-objects/task-create
 * Storing a new task in its Task object, from arguments read with their schemas where they
 * arrived: the task row, the pull request entry it owes, and the alarm that assembles turn 0 if
 * the first attempt, which begins in the same invocation, does not (first-turn-attempts `start`).
 * `create`'s arguments come from the API's task service as RPC arguments; a delivery's come as
 * its intake shard stored them (JSON text, handed on unread) and are read once, here, since that
 * is storage read back across deploys, possibly written by another version of this code. A
 * caller may also come before the task does (a delivery is answered once its shard has it): the
 * object then creates the task from what the shard holds (`current`).
 */
import { AgentConfigSchema, type AgentConfig } from '../src/context/agents.ts';
import { TaskRequestSchema, type TaskRequest, type TaskRequestInput, type TaskStatus } from '../src/tasks/task-request.ts';
import { parseIntakeEntry, readIntakeEntry } from './intake-entry.ts';
import { PendingEntrySchema, type PendingEntry } from './pull-request-entry.ts';
import type { TaskListings } from './task-listings.ts';
import type { TaskRow, TaskStore } from './task-store.ts';

const DAY_MS = 86_400_000;

export type CreateResult = { id: string; status: TaskStatus; created: boolean };
export interface CreateOptions {
  /**
   * `with-assembly`: answer as soon as the task is stored; the tenant's index first hears of it
   * from its first attempt (a webhook's accept path, which GitHub times). `now`
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
  /** Read when a task is stored (the deployment's setting). */
  retentionDays(): number;
  setAlarm(at: number): Promise<void>;
  reportToIndex(): Promise<boolean>;
  /** Begins turn 0's first attempt, or joins the one under way, without waiting for it (first-turn-attempts `start`). */
  startFirstTurn(): void;
  /** This task's delivery as its intake shard still holds it (JSON text), else null (intake-pending). */
  pendingEntry(): Promise<string | null>;
  /**
   * Begins what the first attempt will wait on first (the installation token's exchange:
   * task-token-ahead `early`) from the request as a delivery names it, not yet read with its
   * schema; resolves once that waits on I/O, so the read runs during it. Never rejects.
   */
  ahead?(request: unknown): Promise<void>;
}

/** How a task comes to be in its object: the API's create, its shard's hand-off, or a caller who came first. */
export class TaskCreation {
  readonly #deps: TaskCreateDeps;

  constructor(deps: TaskCreateDeps) {
    this.#deps = deps;
  }

  /** The answer to a create when the object holds its task already (a create is idempotent). */
  existing(): CreateResult | undefined {
    const existing = this.#deps.store.task();
    return existing ? { id: this.#deps.id, status: existing.status, created: false } : undefined;
  }

  async create(input: TaskRequestInput, agent: AgentConfig, options: CreateOptions): Promise<CreateResult> {
    const existing = this.existing();
    if (existing) return existing;
    const entry = options.pullRequestEntry === undefined ? undefined : PendingEntrySchema.parse(options.pullRequestEntry);
    const request = TaskRequestSchema.parse(input);
    const read: ReadTask = { request, agent: AgentConfigSchema.parse(agent), options: { ...options, ...(entry ? { pullRequestEntry: entry } : {}) } };
    // The storing, and the tenant's index told by default, run while the token store is read.
    await this.#deps.ahead?.(request);
    // Another create may have stored the task while this one waited.
    return this.existing() ?? insertTask(this.#deps, read);
  }

  /** `refused` says why the shard's text cannot be read (nothing is stored), else null: created, now or before. */
  async fromIntake(text: string): Promise<{ refused: string | null }> {
    if (this.existing()) return { refused: null };
    let read: ReadTask;
    try {
      const value = JSON.parse(text) as { request?: unknown } | null;
      // The token's exchange begins from the request as the entry names it, before it is read.
      await this.#deps.ahead?.(value?.request);
      read = parseIntakeEntry(value);
    } catch (error) {
      return { refused: error instanceof Error ? error.message : String(error) };
    }
    // Another hand-off, or a caller who came first, may have stored the task while this one waited.
    if (this.existing()) return { refused: null };
    await insertTask(this.#deps, read);
    return { refused: null };
  }

  /**
   * The task, which may come before the task does: an object with no task asks its shard and
   * creates the task from what is stored there (the shard's own forwarding then finds it). A shard
   * that cannot be asked, or a text that cannot be read, is an error for the caller, never a task
   * that does not exist.
   */
  async current(): Promise<TaskRow | undefined> {
    const { store } = this.#deps;
    const stored = store.task();
    if (stored) return stored;
    const text = await this.#deps.pendingEntry();
    // Read again either way: the shard's own create may have come in while this one asked.
    if (text !== null && !store.task()) await insertTask(this.#deps, readIntakeEntry(text));
    return store.task();
  }
}

/**
 * Stores the task, arms its alarm and begins its first attempt; the caller made sure the object
 * holds no task yet. Answered once stored and armed: the caller (an RPC from the API or the intake
 * shard) does not wait for the attempt.
 */
async function insertTask(deps: TaskCreateDeps, { request, agent, options }: ReadTask): Promise<CreateResult> {
  const now = Date.now();
  deps.store.insertTask(deps.id, request, now, now + deps.retentionDays() * DAY_MS, agent);
  if (options.pullRequestEntry) deps.listings.owePullRequestEntry(options.pullRequestEntry);
  // Stored and armed: from here the task survives this isolate, and the alarm reports it.
  await deps.setAlarm(now);
  if (options.indexReport !== 'with-assembly') await deps.reportToIndex();
  // After the index heard of it (`now`), so the attempt's own report comes second.
  deps.startFirstTurn();
  return { id: deps.id, status: 'pending', created: true };
}
