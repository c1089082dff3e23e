/**
 * @module tasks/earlier-tasks
 * The history provider's reader (context/task-history) over a tenant's task index: one query
 * for the tasks on this task's repository created before it, its pull request's first. The
 * index is the task's own tenant's (one object per tenant), and every row is checked against
 * that tenant again here, so no other tenant's task can be shown whatever the index answers.
 *
 * Links are plain inspector URLs on this deployment's public origin: they open with the
 * tenant's token, carry no signature or expiry, and so read the same on every retry.
 */
import type { EarlierTask, TaskHistoryReader } from '../context/task-history.ts';
import { REQUEST_EXCERPT_CHARS, REQUEST_PREVIEW_CHARS, TaskIndexRowSchema, type EarlierTasksQuery, type TaskIndexRow } from './task-index.ts';

export interface EarlierTasksIndex {
  earlier(query: EarlierTasksQuery): Promise<unknown>;
}

/** The task whose history is read. */
export interface HistorySubject {
  taskId: string;
  tenant: string;
  /** As the index keeps it (`displayRepo`). */
  repo: string;
  createdAt: number;
  pullRequest?: number | undefined;
}

export function earlierTasksReader(index: EarlierTasksIndex, subject: HistorySubject, options: { origin?: string | undefined; now: () => number }): TaskHistoryReader {
  return {
    async earlier({ limit }) {
      const query: EarlierTasksQuery = { repo: subject.repo, before: { createdAt: subject.createdAt, taskId: subject.taskId }, pullRequest: subject.pullRequest, limit, now: options.now() };
      const rows = TaskIndexRowSchema.array().parse(await index.earlier(query));
      return rows
        .filter((row) => row.tenant === subject.tenant && row.taskId !== subject.taskId)
        .slice(0, limit)
        .map((row) => earlierTask(row, options.origin));
    },
  };
}

function earlierTask(row: TaskIndexRow, origin: string | undefined): EarlierTask {
  const [request, max] = row.requestExcerpt === undefined ? [row.request, REQUEST_PREVIEW_CHARS] : [row.requestExcerpt, REQUEST_EXCERPT_CHARS];
  const finished = row.status === 'ready' || row.status === 'failed';
  return {
    id: row.taskId,
    origin: row.origin,
    request,
    requestCut: request.endsWith('…') && Array.from(request).length >= max,
    status: row.status,
    reason: row.reason,
    agent: row.agent,
    commit: row.commit,
    pullRequest: row.pullRequest ?? null,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: finished ? new Date(row.updatedAt).toISOString() : null,
    viewUrl: origin === undefined ? null : `${origin}/tasks/${row.taskId}/view`,
  };
}
