/**
 * @module durable-objects/usage-record
 * What the model API reported for one turn's request, recorded once per turn: only for a turn
 * that began; the same report again answers the recorded one (a retried post), a different one
 * is a conflict, since a turn's request has one answer.
 */
import type { UsageResult } from '../src/tasks/task-results.ts';
import { normaliseUsage, sameUsage, type UsageReport } from '../src/tasks/turn-usage.ts';
import type { TaskRow, TaskStore } from './task-store.ts';
import { absentTurn } from './turn-begin.ts';

export function recordUsage(store: TaskStore, task: TaskRow, turn: number, report: UsageReport, now: number): UsageResult {
  if (!store.turn(turn)) return { status: 'conflict', message: `${absentTurn(task, turn)}; report usage for a turn whose request was sent` };
  const usage = normaliseUsage(report, new Date(now).toISOString());
  const known = store.usage(turn);
  if (known) {
    if (sameUsage(known, usage)) return { status: 'ok', usage: known, duplicate: true };
    return { status: 'conflict', message: `turn ${turn} already has usage reported at ${known.receivedAt} (${known.inputTokens} input tokens, ${known.cachedTokens} cached); a turn's request has one answer` };
  }
  return { status: 'ok', usage: store.putUsage(turn, usage, now), duplicate: false };
}
