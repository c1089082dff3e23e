/**
 * @module durable-objects/task-rules
 * The rules matrix of a task's repository at its pinned commit (providers/rules/rules-matrix): for
 * a pull request's check run, the paths turn 0 was assembled for (the changed files); for MCP
 * `rules_for_paths`, the paths asked. Read with the rules settings turn 0 took effect with, from
 * the working directory the task names, under a deadline. A task that reads no repository content
 * (untrusted) or whose rules provider is off gets no matrix, and says why; a read that fails is a
 * failure with its reason, never an empty matrix.
 *
 * The check run's matrix is for turn 0's focus at turn 0's commit: it reads the very snapshot turn
 * 0 was just assembled from when this object still holds it (`pinned`: its read-ahead, its tree if
 * loaded, the blobs it read, all in memory), else a snapshot with turn 0's read plan, which what
 * the task read ahead (cached under that plan) serves. Either way a pull request's report asks
 * GitHub for nothing turn 0 already read (issue 56). Paths asked for by name are another focus:
 * they read without either.
 */
import type { ClientName } from '../src/context/client.ts';
import { withDeadline } from '../src/lib/deadline.ts';
import type { RulesReportResult } from '../src/notify/rules-report.ts';
import { RulesConfigSchema } from '../src/providers/rules/config.ts';
import { rulesMatrix } from '../src/providers/rules/rules-matrix.ts';
import type { ReadPlan } from '../src/sources/read-plan.ts';
import type { Snapshot } from '../src/sources/snapshot.ts';
import type { OpenedSource } from '../src/tasks/open-source.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import type { TaskRow, TaskStore } from './task-store.ts';

/** As long as the other reads on request may take (task-files). */
export const RULES_READ_DEADLINE_MS = 10_000;

export interface TaskRulesDeps {
  store: TaskStore;
  openSource(request: TaskRequest): Promise<OpenedSource>;
  /** Turn 0's read plan for the task (task-plan), when it can be worked out. */
  turnZeroPlan?(task: TaskRow, opened: OpenedSource): ReadPlan | undefined;
  /** The snapshot turn 0 was assembled from, when this object still holds it. */
  pinned?: Snapshot;
}

export interface TaskRulesQuery {
  /** The paths to answer for; absent: turn 0's focus paths (a pull request's changed files). */
  paths?: readonly string[];
  /** The clients the caller named; absent: the rules settings' `clients`, else `defaultClients`. */
  clients?: readonly ClientName[] | undefined;
  defaultClients: readonly ClientName[];
}

export async function taskRulesMatrix(task: TaskRow, query: TaskRulesQuery, deps: TaskRulesDeps): Promise<RulesReportResult> {
  if (!task.request.trusted) return { status: 'skipped', reason: 'the task is untrusted: it reads no repository content, so no rule file is read for it' };
  const commit = task.commit_sha;
  if (commit === null) return { status: 'skipped', reason: `the task has not pinned a commit yet (it is ${task.status})` };
  const first = deps.store.turn(0);
  const effective = first?.settings?.providers.find((provider) => provider.name === 'rules');
  if (effective && !effective.enabled) return { status: 'skipped', reason: 'the rules provider is off for this task' };
  const config = RulesConfigSchema.safeParse(effective?.config ?? {});
  const settings = config.success ? config.data : RulesConfigSchema.parse({});
  const paths = query.paths ?? first?.focus?.paths ?? [];
  const files = query.paths ? [] : (first?.focus?.files ?? []);
  const describe = () => `reading the rule files at ${commit} did not finish within ${RULES_READ_DEADLINE_MS} ms`;
  try {
    const matrix = await withDeadline(RULES_READ_DEADLINE_MS, describe, async (signal) => {
      return rulesMatrix(await snapshotFor(task, commit, query, deps, signal), {
        cwd: task.request.cwd,
        paths,
        files,
        clients: query.clients ?? settings.clients ?? query.defaultClients,
        config: settings,
        signal,
      });
    });
    return { status: 'ok', matrix };
  } catch (error) {
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

async function snapshotFor(task: TaskRow, commit: string, query: TaskRulesQuery, deps: TaskRulesDeps, signal: AbortSignal): Promise<Snapshot> {
  if (!query.paths && deps.pinned?.commit === commit) return deps.pinned;
  const opened = await deps.openSource(task.request);
  const plan = query.paths ? undefined : deps.turnZeroPlan?.(task, opened);
  return opened.source.snapshot(commit, { ...(plan ? { plan } : {}), signal });
}
