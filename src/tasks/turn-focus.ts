/**
 * @module tasks/turn-focus
 * The focus of turn 0 of a task: the paths the request named, the pull request's changed files
 * (listed here once per assembly attempt, under its deadline, and handed to every provider; see
 * `pullRequestFilesNeeded`), and what was posted on the task before turn 0 began. A listing that
 * fails is handed on as a failure, which the rules provider tells the model about: never silently
 * "no focus paths". Later turns start from it (durable-objects/task-focus).
 */
import { focusPathsOf, pullRequestFocus } from '../context/focus.ts';
import { NOT_MOVED, type Moved } from '../context/provider.ts';
import { pullRequestFilesNeeded, type PlanInput } from '../context/read-ahead.ts';
import type { GitHubApi, PullRequestFilesResult } from '../sources/pull-requests.ts';
import type { TaskRequest } from './task-request.ts';

/** The focus paths a task view and its read plan are made with, and which of them are known files. */
export interface FocusPaths {
  paths: readonly string[];
  files: readonly string[];
}

export const NO_FOCUS: FocusPaths = { paths: [], files: [] };

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


export function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
