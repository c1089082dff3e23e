/**
 * @module durable-objects/turn-begin
 * Which turn may begin, and what a client is told when it may not. Turn 0 of a failed task never
 * begins again: retries are the alarm's, and bounded. Turn 0 of a task not yet ready joins its
 * attempt under way (first-turn-attempts). A later turn begins only once turn 0 is ready, and a
 * new one only while the transcript is under its cap; the ledger assembles it at most once.
 */
import { MAX_TRANSCRIPT_BYTES } from '../src/context/transcript-limits.ts';
import type { TurnResult } from '../src/tasks/task-results.ts';
import { MAX_ASSEMBLY_ATTEMPTS, type FirstTurnAttempts } from './first-turn-attempts.ts';
import type { TaskRow, TaskStore } from './task-store.ts';
import type { BeginResult, TurnLedger } from './turn-ledger.ts';
import { turnView } from './turn-view.ts';

export interface TurnBeginDeps {
  store: TaskStore;
  attempts: FirstTurnAttempts;
  /** Loaded and built on first use (the Task object's wiring). */
  ledger(): Promise<TurnLedger>;
  /** The cache writes of the turn's reads, done: the turn is stored first, the answer of the call that assembled it waits for them (first-turn-attempts). */
  writesDone(): Promise<void>;
}

export async function beginTurn(task: TaskRow, turn: number, deps: TurnBeginDeps): Promise<TurnResult> {
  const { store } = deps;
  if (turn === 0 && task.status === 'failed') {
    // A client re-running a failed task would unbound the retries.
    return { status: 'conflict', message: `the task is failed after ${task.attempts} of ${MAX_ASSEMBLY_ATTEMPTS} attempts (${task.status_reason ?? 'no reason'}); a failed task is not assembled again: create a new task to try again` };
  }
  if (turn === 0 && task.status !== 'ready') return deps.attempts.run();
  if (turn > 0 && task.status === 'failed') return { status: 'conflict', message: absentTurn(task, turn) };
  if (turn > 0 && task.status !== 'ready') return { status: 'conflict', message: `turn 0 is ${task.status}; turn ${turn} cannot begin yet` };
  if (turn > 0 && !store.turn(turn) && store.transcript.bytes() >= MAX_TRANSCRIPT_BYTES) {
    // Host context items count too; past the cap no new turn may add one.
    return { status: 'conflict', message: `the transcript holds its cap of ${MAX_TRANSCRIPT_BYTES} bytes; turn ${turn} cannot begin (start a new task with parentTaskId to continue)` };
  }
  let result: BeginResult;
  try {
    result = await (await deps.ledger()).begin(turn);
  } catch (error) {
    await deps.writesDone();
    // Nothing was stored; the client may begin the turn again.
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
  // A turn stored already is only read: the writes pending are the assembly's that stored it, whose
  // own invocation waits for them (first-turn-attempts), and a read through the cache waits for them
  // first (cache-writes). Waiting here held an agent that begins turn 0 once the task is ready (the
  // MCP tools) for writes it never reads, and started them beside the report.
  if (result.status !== 'ok' || result.path !== 'fast') await deps.writesDone();
  if (result.status === 'conflict') return { status: 'conflict', message: `turn ${turn} is not next; the next turn is ${result.next}` };
  if (result.status === 'too-large') return { status: 'conflict', message: `turn ${turn} cannot begin: its context item: ${result.message}` };
  if (result.status === 'not-found') return result;
  return storedTurn(store, turn);
}

/** A turn that began, as the client reads it: its context over turn 0's and the request's transcript. */
export function storedTurn(store: TaskStore, turn: number): TurnResult {
  const first = store.turn(0);
  const record = store.turn(turn);
  if (!first || !record) {
    const task = store.task();
    return { status: 'conflict', message: task ? absentTurn(task, turn) : `turn ${turn} has not begun` };
  }
  return { status: 'ok', turn: turnView(first, record, store.requestTranscript(turn, record.item?.id ?? null)) };
}

/**
 * Why a turn has no record, for every read or write that needs one: the task's failure (it never
 * will), turn 0 still being assembled, or a later turn nobody began.
 */
export function absentTurn(task: TaskRow, turn: number): string {
  if (task.status === 'failed') {
    return `turn ${turn} was never assembled: the task failed after ${task.attempts} of ${MAX_ASSEMBLY_ATTEMPTS} attempts (${task.status_reason ?? 'no reason'}); a failed task is not assembled again: create a new task to try again`;
  }
  if (turn === 0 || task.status !== 'ready') {
    const state = `turn 0 is not assembled yet (the task is ${task.status}${task.status_reason ? `: ${task.status_reason}` : ''}); wait for the task to be ready`;
    return turn === 0 ? state : `turn ${turn} has not begun: ${state}`;
  }
  return `turn ${turn} has not begun`;
}
