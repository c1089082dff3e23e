/**
 * @module notify/notify-task
 * Tells the place a task came from how its assembly ended: a check run on the pull request's
 * head commit, or a message to the Slack command's `response_url`. Called by the Task Durable
 * Object after assembly; a notification is a courtesy, so an upstream failure is logged and
 * never thrown back into the object's ledger.
 */
import type { AssembledTurn } from '../context/turn-schema.ts';
import type { Config } from '../env.ts';
import { describeFailure } from '../sources/github/errors.ts';
import type { GitHubUsage } from '../sources/github/usage.ts';
import type { KeyValueStore } from '../sources/key-value-store.ts';
import type { Notify } from '../tasks/task-request.ts';
import { installationClient } from '../triggers/github/app-client.ts';
import { failureSummary, RULES_REPORT_BUDGET, turnSummary } from './check-run-summary.ts';
import { createContextCheckRun } from './github-check.ts';
import { rulesReportOrReason, type RulesReport, type RulesReportResult } from './rules-report.ts';
import { repositoryLinks } from '../inspector/links.ts';
import { postSlackResponse, slackFailureText, slackTurnText } from './slack-response.ts';

/**
 * `viewUrl`: a signed link to the task's inspector page, when this deployment signs links.
 * `rules`: a pull request's rules matrix for its changed paths (or why there is none), for the check run.
 */
export type TaskResult = ({ taskId: string; status: 'ready'; turn: AssembledTurn; github?: GitHubUsage; rules?: RulesReportResult } | { taskId: string; status: 'failed'; reason: string }) & { viewUrl?: string };

export interface NotifyDeps {
  config: Config;
  fetch: typeof fetch;
  /** Where App installation tokens are shared across isolates (the `TENANTS` namespace). */
  tokens?: KeyValueStore;
  /** Bounds the whole report, so a silent GitHub or Slack cannot hold a finished task. */
  timeoutMs?: number;
}

export const NOTIFY_TIMEOUT_MS = 10_000;

/**
 * @example
 * await notifyTaskResult({ config: getConfig(env), fetch }, task.request.notify, { taskId, status: 'ready', turn });
 */
export async function notifyTaskResult(deps: NotifyDeps, notify: Notify, result: TaskResult): Promise<void> {
  const signal = AbortSignal.timeout(deps.timeoutMs ?? NOTIFY_TIMEOUT_MS);
  try {
    if (notify.kind === 'slack') {
      const text = result.status === 'ready' ? slackTurnText(result.turn, result.taskId, result.viewUrl) : slackFailureText(result.reason, result.taskId, result.viewUrl);
      const problem = await postSlackResponse(deps.fetch, notify.responseUrl, text, signal);
      if (problem) console.warn(`task ${result.taskId}: Slack response not delivered: ${problem}`);
      return;
    }
    const octokit = installationClient(deps.config, notify.installationId, { fetch: deps.fetch, ...(deps.tokens ? { tokens: deps.tokens } : {}) });
    if (!octokit) {
      console.warn(`task ${result.taskId}: no GitHub App credentials, check run not created`);
      return;
    }
    await createContextCheckRun(octokit, {
      owner: notify.owner,
      repo: notify.repo,
      headSha: notify.headSha,
      taskId: result.taskId,
      conclusion: result.status === 'ready' ? 'success' : 'failure',
      output: result.status === 'ready' ? turnSummary(result.turn, result.taskId, result.github, rulesOf(deps.config, notify, result)) : failureSummary(result.reason, result.taskId),
      completedAt: new Date(),
      ...(result.viewUrl ? { detailsUrl: result.viewUrl } : {}),
      signal,
    });
  } catch (error) {
    const subject = notify.kind === 'slack' ? 'the Slack response_url' : `check run on ${notify.owner}/${notify.repo}@${notify.headSha}`;
    console.error(`task ${result.taskId}: notification failed: ${describeFailure(error, subject)}`);
  }
}

/** The rules report of a ready task, its files linked at the matrix's commit on the repository's host. */
function rulesOf(config: Config, notify: Extract<Notify, { kind: 'github-check' }>, result: Extract<TaskResult, { status: 'ready' }>): RulesReport | undefined {
  if (!result.rules) return undefined;
  const repository = repositoryLinks(`${notify.owner}/${notify.repo}`, config.GITHUB_API_URL);
  const commit = result.rules.status === 'ok' ? result.rules.matrix.commit : '';
  const links = {
    file: (path: string, line?: number) => {
      const href = repository.file(path, commit);
      return href && line !== undefined ? `${href}#L${line}` : href;
    },
    ...(result.viewUrl ? { inspector: `${result.viewUrl}#rule-matrix-0` } : {}),
  };
  return rulesReportOrReason(result.rules, links, RULES_REPORT_BUDGET);
}
