/**
 * @module durable-objects/task-report
 * What a finished task tells the place it came from (a check run, a Slack reply): its turn 0 or
 * its failure, what its GitHub reads cost, a pull request's rules report (task-rules), and a
 * signed link to its inspector page.
 */
import type { Config } from '../src/env.ts';
import type { TaskResult } from '../src/notify/notify-task.ts';
import type { RulesReportResult } from '../src/notify/rules-report.ts';
import { taskViewUrl } from '../src/tasks/view-link.ts';
import type { TaskRow, TaskStore } from './task-store.ts';
import { turnView } from './turn-view.ts';

export async function taskReport(
  config: Config,
  store: TaskStore,
  task: TaskRow,
  outcome: { status: 'ready' | 'failed'; reason: string | null },
  now: number,
  rules?: RulesReportResult,
): Promise<TaskResult> {
  const viewUrl = await taskViewUrl(
    { secret: config.VIEW_LINK_SECRET, ttlHours: config.VIEW_LINK_TTL_HOURS },
    config.PUBLIC_URL ?? task.request.publicUrl,
    task.task_id,
    task.expires_at,
    now,
  );
  const link = viewUrl ? { viewUrl } : {};
  const first = store.turn(0);
  if (outcome.status === 'ready' && first) {
    const turn = turnView(first, first, store.requestTranscript(0, first.item?.id ?? null));
    return { taskId: task.task_id, status: 'ready', turn, ...(first.github ? { github: first.github } : {}), ...(rules ? { rules } : {}), ...link };
  }
  return { taskId: task.task_id, status: 'failed', reason: outcome.reason ?? 'unknown failure', ...link };
}
