/**
 * @module durable-objects/focus-post
 * What `POST /tasks/:id/paths` may record on a task, and recording it: nothing on a failed task
 * (no turn would follow it), rules only by a name turn 0's rules index knows, and paths and
 * skills the task follows already as duplicates (see focus-log).
 */
import type { FocusPost, FocusResult } from '../src/tasks/task-results.ts';
import type { FocusLog } from './focus-log.ts';
import { unknownRules } from './requested-rules.ts';
import type { TaskRow, TaskStore } from './task-store.ts';

export function postFocus(task: TaskRow, store: TaskStore, focus: FocusLog, post: FocusPost, now: number): FocusResult {
  if (task.status === 'failed') return { status: 'conflict', message: `the task failed (${task.status_reason ?? 'no reason'}); no turn would follow these paths: start a new task` };
  const first = store.turn(0);
  if (post.rules.length > 0) {
    if (!first) return { status: 'conflict', message: 'turn 0 is not assembled yet, so its rules index is not known: ask for rules by name once the task is ready' };
    const unknown = unknownRules(post.rules, first);
    if (unknown) return { status: 'invalid', ...unknown };
  }
  const known = { paths: new Set([task.request.cwd, ...(first?.focus?.paths ?? task.request.paths)]), skills: new Set(task.request.skills) };
  const recorded = focus.record(post, known, now);
  return recorded.status === 'ok' ? { ...recorded, nextTurn: store.nextTurn() } : recorded;
}
