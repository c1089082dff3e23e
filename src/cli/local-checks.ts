/**
 * @module cli/local-checks
 * The checks before an action that a local repository can answer, through the same checks the
 * service runs (`src/checks/`): `push` compares the branch's upstream, as the last fetch recorded
 * it, with the commit the work was built on (and says it did not fetch); `report-ci` reads GitHub's
 * check runs and statuses for the commit when it knows the repository on GitHub and has a token,
 * and is `unknown` otherwise. `groundwork check` and the local MCP server's `check_before` both
 * answer through here, so they say the same thing.
 */
import type { CheckReads, CheckTask } from '../checks/check-task.ts';
import type { CheckResult } from '../checks/result.ts';
import { CHECK_DEADLINE_MS, runCheck } from '../checks/run-check.ts';
import { boundReasons } from '../checks/verdict.ts';
import { tokenAuth } from '../sources/github/auth.ts';
import { createGitHubApi } from '../sources/github/pull-request-files.ts';
import { createGitHubSource } from '../sources/github/source.ts';
import { localUpstream } from './local-upstream.ts';
import type { OpenedLocal } from './open-local.ts';

export const LOCAL_CHECK_ACTIONS = ['push', 'report-ci'] as const;
export type LocalCheckAction = (typeof LOCAL_CHECK_ACTIONS)[number];

export interface LocalCheckInput {
  action: LocalCheckAction;
  /** The repository, opened at the commit the work was built on (push) or whose CI is reported. */
  opened: Extract<OpenedLocal, { ok: true }>;
  /** push: the branch to push (default: the one checked out); report-ci: the branch the commit must head on GitHub. */
  branch?: string | undefined;
  /** report-ci: `OWNER/NAME` on GitHub; without it the answer is `unknown`. */
  github?: string | undefined;
  /** Where GITHUB_TOKEN and GITHUB_API_URL are read from. */
  env: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
  now: () => number;
  /** How to name the missing GitHub repository in the reason (`--github OWNER/NAME`, or how the MCP server finds it). */
  githubHint?: string;
}

export async function localCheck(input: LocalCheckInput): Promise<CheckResult> {
  const upstream = await localUpstream(input.opened.root, input.branch);
  return input.action === 'push' ? checkPush(input, upstream) : checkReportCi(input, upstream);
}

type Upstream = Awaited<ReturnType<typeof localUpstream>>;

async function checkPush(input: LocalCheckInput, upstream: Upstream): Promise<CheckResult> {
  const { opened, now } = input;
  const branch = upstream.ok ? upstream.label : (input.branch ?? 'HEAD');
  const task: CheckTask = { repository: opened.source.repository, commit: opened.commit, ref: branch, knowledge: [] };
  // The upstream is read from its remote-tracking ref: the remote as the last fetch saw it.
  const reads: CheckReads | { unavailable: string; now(): number } = upstream.ok
    ? { source: { ...opened.source, resolve: (ref, resolveOptions) => opened.source.resolve(ref === branch ? upstream.tracking : ref, resolveOptions) }, now }
    : { unavailable: upstream.reason, now };
  const result = await runCheck({ task, request: { action: 'push', branch, commit: opened.commit }, reads, deadlineMs: CHECK_DEADLINE_MS });
  if (!upstream.ok) return result;
  const note = `as the last fetch recorded ${branch}: this did not fetch (git fetch, then check again, to see pushes since)`;
  // Second, after the reason that decided: the line shows the first, the list the rest.
  const [first = '', ...rest] = result.reasons;
  return { ...result, reasons: boundReasons([first, note, ...rest]) };
}

async function checkReportCi(input: LocalCheckInput, upstream: Upstream): Promise<CheckResult> {
  const { opened, env, now } = input;
  const token = env['GITHUB_TOKEN'];
  const branch = input.branch ?? (upstream.ok ? upstream.remoteBranch : 'HEAD');
  const repository = input.github ?? opened.source.repository;
  const task: CheckTask = { repository, commit: opened.commit, ref: branch, knowledge: [] };
  const request = { action: 'report-ci' as const, commit: opened.commit, branch };
  const unknown = (why: string) => runCheck({ task, request, reads: { unavailable: why, now }, deadlineMs: CHECK_DEADLINE_MS });
  if (input.github === undefined) return unknown(`report-ci reads the checks GitHub has for the commit: ${input.githubHint ?? 'name the repository on GitHub'} (and a token in GITHUB_TOKEN)`);
  if (!token) return unknown(`report-ci reads ${input.github} on GitHub: set GITHUB_TOKEN to a token that may read its checks`);
  const [owner = '', name = ''] = input.github.split('/');
  const client = { owner, repo: name, auth: tokenAuth(token), ...(env['GITHUB_API_URL'] ? { baseUrl: env['GITHUB_API_URL'] } : {}), ...(input.fetch ? { fetch: input.fetch } : {}) };
  const reads: CheckReads = { source: createGitHubSource({ ...client, reads: 'rest' }), github: createGitHubApi(client), now };
  return runCheck({ task, request, reads, deadlineMs: CHECK_DEADLINE_MS });
}
