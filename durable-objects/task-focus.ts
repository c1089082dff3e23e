/**
 * @module durable-objects/task-focus
 * The focus of one turn of a stored task. Turn 0: the paths the request named, the pull request's
 * changed files (listed here once per assembly attempt, under its deadline, and handed to every
 * provider; see `pullRequestFilesNeeded`), and what was posted before it began. A later turn:
 * turn 0's focus plus what was posted since, and what is new since the previous turn began
 * (`moved`). A listing that fails is handed on as a failure, which the rules provider tells the
 * model about: never silently "no focus paths".
 */
import { focusPathsOf, pullRequestFocus } from '../src/context/focus.ts';
import { NOT_MOVED, type Moved } from '../src/context/provider.ts';
import { pullRequestFilesNeeded, type PlanInput } from '../src/context/read-ahead.ts';
import type { GitHubApi, PullRequestFilesResult } from '../src/sources/pull-requests.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import type { FocusPaths } from './task-plan.ts';
import type { TurnRecord } from './task-store.ts';

export interface TurnFocus extends FocusPaths {
  /** Skills of the view: the request's, then those posted up to `through`. */
  skills: readonly string[];
  moved: Moved;
  /** The last posted sequence number this turn takes. */
  through: number;
  pullRequestFiles?: PullRequestFilesResult;
}

/** What the task's focus log answers (see focus-log). */
export interface PostedFocus {
  through(): number;
  between(after: number, upTo: number): Moved;
}

export interface FirstFocusInput {
  request: TaskRequest;
  /** The runner's view of the turn before focus: what decides who needs the pull request's files. */
  plan: PlanInput;
  github?: GitHubApi;
  posted: PostedFocus;
  signal: AbortSignal;
  progress(step: string): void;
}

export async function firstTurnFocus(input: FirstFocusInput): Promise<TurnFocus> {
  const { request, posted } = input;
  const through = posted.through();
  const early = posted.between(0, through);
  const pr = request.pullRequest;
  const needed = pullRequestFilesNeeded(input.plan);
  let pullRequestFiles: PullRequestFilesResult | undefined;
  if (pr && input.github && needed > 0) {
    input.progress(`listing the files of pull request #${pr.number}`);
    pullRequestFiles = await input.github.pullRequestFiles(pr.number, { limit: needed, signal: input.signal });
  }
  const files = pullRequestFiles?.status === 'ok' ? pullRequestFocus(pullRequestFiles.files, pullRequestFiles.complete, pr?.changedFiles).paths : [];
  const paths = focusPathsOf(request.cwd, [request.paths, files, early.paths]);
  const kept = new Set(paths);
  return {
    paths,
    files: files.filter((path) => kept.has(path)),
    skills: unique([...request.skills, ...early.skills]),
    moved: NOT_MOVED,
    through,
    ...(pullRequestFiles ? { pullRequestFiles } : {}),
  };
}

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

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
