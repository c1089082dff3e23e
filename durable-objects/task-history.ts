/**
 * @module durable-objects/task-history
 * The earlier-tasks reader (tasks/earlier-tasks) for one stored task: its own tenant's index,
 * its repository as the index keeps it, its creation as the cut-off, its pull request first.
 */
import type { TaskHistoryReader } from '../src/context/task-history.ts';
import { taskIndexStub } from '../src/tasks/durable-task-index.ts';
import { earlierTasksReader } from '../src/tasks/earlier-tasks.ts';
import { displayRepo } from '../src/tasks/task-request.ts';
import type { ViewLinkSettings } from '../src/tasks/view-link.ts';
import type { TaskRow } from './task-store.ts';

/**
 * `publicUrl`: the deployment's PUBLIC_URL, over the origin each task was created at; `links`:
 * how the earlier tasks' page links are signed (VIEW_LINK_SECRET, VIEW_LINK_TTL_HOURS).
 */
export function earlierTasksFor(env: Env, publicUrl: string | undefined, links: ViewLinkSettings): (task: TaskRow, ahead?: number) => TaskHistoryReader {
  return (task, ahead) =>
    earlierTasksReader(
      taskIndexStub(env, task.request.tenant),
      { taskId: task.task_id, tenant: task.request.tenant, repo: displayRepo(task.request.repo), createdAt: task.created_at, pullRequest: task.request.pullRequest?.number },
      { origin: publicUrl ?? task.request.publicUrl, links, now: () => Date.now(), ...(ahead === undefined ? {} : { ahead }) },
    );
}
