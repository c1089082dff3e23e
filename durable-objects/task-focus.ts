/**
 * @module durable-objects/task-focus
 * The focus of a later turn of a stored task: turn 0's focus (its record keeps it) plus what was
 * posted since turn 0 began, and what is new since the previous turn began (`moved`).
 */
import { focusPathsOf } from '../src/context/focus.ts';
import { unique, type PostedFocus, type TurnFocus } from '../src/tasks/turn-focus.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import type { TurnRecord } from './task-store.ts';

/** `first` is turn 0's record, `previous` the turn before this one. */
export function laterTurnFocus(request: TaskRequest, first: TurnRecord, previous: TurnRecord, posted: PostedFocus): TurnFocus {
  const base = first.focus ?? { paths: [], files: [] };
  const through = posted.through();
  const since = posted.between(first.moved?.through ?? 0, through);
  const fresh = posted.between(previous.moved?.through ?? 0, through);
  const paths = focusPathsOf(request.cwd, [base.paths, since.paths]);
  const skills = unique([...request.skills, ...posted.between(0, first.moved?.through ?? 0).skills, ...since.skills]);
  return { paths, files: base.files, skills, moved: fresh, through };
}
