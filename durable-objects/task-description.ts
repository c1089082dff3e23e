/**
 * @module durable-objects/task-description
 * How a Task object describes itself to `GET /tasks/:id` and the inspector: status, request (a
 * git URL without its credentials), pin, retention, mailbox, the checks made before actions and
 * what each stored turn did.
 */
import { displayRepo } from '../src/tasks/task-request.ts';
import type { CheckLog } from '../src/checks/result.ts';
import type { MailboxSummary, TaskDescription } from '../src/tasks/task-results.ts';
import type { TaskRow, TaskStore } from './task-store.ts';

export function describeTask(task: TaskRow, store: TaskStore, mailbox: MailboxSummary, checks: CheckLog): TaskDescription {
  return {
    id: task.task_id,
    status: task.status,
    reason: task.status_reason,
    attempts: task.attempts,
    // Credentials in a git URL were given to read the repository, never to be shown again.
    request: { ...task.request, repo: displayRepo(task.request.repo) },
    commit: task.commit_sha,
    createdAt: new Date(task.created_at).toISOString(),
    expiresAt: new Date(task.expires_at).toISOString(),
    mailbox,
    checks,
    turns: describedTurns(store),
  };
}

function describedTurns(store: TaskStore): TaskDescription['turns'] {
  const usages = store.usages();
  return store.turns().map((t) => {
    const usage = usages.get(t.turn);
    return {
      turn: t.turn,
      digest: t.digest,
      chars: t.chars,
      tokens: t.tokens,
      empty: t.item === null,
      agent: t.agent,
      commit: t.commit,
      createdAt: new Date(t.createdAt).toISOString(),
      providers: t.providers,
      ...(t.github ? { github: t.github } : {}),
      ...(usage ? { usage } : {}),
    };
  });
}
