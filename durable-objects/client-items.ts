/**
 * @module durable-objects/client-items
 * What a client posts to a task's transcript (`POST /tasks/:id/transcript`): items
 * of the turn it is in, appended all or nothing. A tool result must answer a call the transcript
 * or the same batch holds (transcript-pairing), so one unpaired result appends none of the batch;
 * a retried batch counts as duplicates, never as too large (transcript-writer).
 */
import { checkPairing } from '../src/context/transcript-pairing.ts';
import type { TranscriptItem } from '../src/context/transcript.ts';
import type { AppendResult } from '../src/tasks/task-results.ts';
import type { TaskRow, TaskStore } from './task-store.ts';
import { absentTurn } from './turn-begin.ts';

export function appendClientItems(store: TaskStore, task: TaskRow, items: TranscriptItem[]): AppendResult {
  const current = store.nextTurn() - 1;
  if (current < 0) return { status: 'conflict', message: absentTurn(task, 0) };
  const problem = checkPairing(store.toolItems(), items);
  if (problem) return { status: 'invalid', field: `items[${problem.index}].${problem.field}`, message: problem.message };
  const written = store.transcript.append(items, current);
  return written.status === 'ok' ? { status: 'ok', appended: written.appended, duplicates: written.duplicates } : written;
}
