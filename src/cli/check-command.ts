/**
 * @module cli/check-command
 * `groundwork check push|report-ci`: what `POST /tasks/:id/checks` answers, for a local
 * repository, through the same checks (`src/checks/`). push compares the branch's upstream as
 * the last fetch recorded it with the commit the work was built on, and says it did not fetch;
 * report-ci reads GitHub's check runs and statuses for the commit when given `--github` and a
 * token, and is `unknown` otherwise.
 */
// First: it configures zod before any schema below is built.
import './zod-config.ts';
import type { CheckReads, CheckTask } from '../checks/check-task.ts';
import { checkLine } from '../checks/describe.ts';
import type { CheckResult } from '../checks/result.ts';
import { CHECK_DEADLINE_MS, runCheck } from '../checks/run-check.ts';
import { boundReasons } from '../checks/verdict.ts';
import { tokenAuth } from '../sources/github/auth.ts';
import { createGitHubApi } from '../sources/github/pull-request-files.ts';
import { createGitHubSource } from '../sources/github/source.ts';
import type { CliIo } from './context-command.ts';
import { CHECK_USAGE, parseCheckArgs, type CheckOptions } from './check-args.ts';
import { jsonOutput } from './json-output.ts';
import { localUpstream } from './local-upstream.ts';
import { openLocalRepository } from './open-local.ts';
import { terminalText } from './terminal-text.ts';

export const CHECK_EXIT = { go: 0, unknown: 1, usage: 2, stop: 3 } as const;

export interface CheckCommandDeps {
  now?: () => number;
  fetch?: typeof fetch;
  /** Where GITHUB_TOKEN and GITHUB_API_URL are read from (the process environment). */
  env?: Readonly<Record<string, string | undefined>>;
}

export async function runCheckCommand(argv: readonly string[], rawIo: CliIo, deps: CheckCommandDeps = {}): Promise<number> {
  const stderr = (text: string): void => rawIo.stderr(terminalText(text));
  const parsed = parseCheckArgs(argv);
  if (!parsed.ok) {
    stderr(`groundwork check: ${parsed.error}\n\n${CHECK_USAGE}\n`);
    return CHECK_EXIT.usage;
  }
  if ('help' in parsed) {
    rawIo.stdout(`${terminalText(CHECK_USAGE)}\n`);
    return CHECK_EXIT.go;
  }
  const { options } = parsed;
  const opened = await openLocalRepository({ repo: options.repo, ref: options.since ?? 'HEAD', refOption: '--since', cwd: undefined, readTree: false });
  if (!opened.ok) {
    stderr(`groundwork check: ${opened.error}\n`);
    return opened.exit === 2 ? CHECK_EXIT.usage : CHECK_EXIT.unknown;
  }
  const now = deps.now ?? Date.now;
  const upstream = await localUpstream(opened.root, options.branch);
  const result = options.action === 'push' ? await checkPush(options, opened, upstream, now) : await checkReportCi(options, opened, upstream, { ...deps, now });

  const stdout = options.json ? rawIo.stdout : (text: string) => rawIo.stdout(terminalText(text));
  stdout(options.json ? jsonOutput(result) : `${[checkLine(result), ...result.reasons.slice(1).map((reason) => `- ${reason}`)].join('\n')}\n`);
  return CHECK_EXIT[result.verdict];
}

type Opened = Extract<Awaited<ReturnType<typeof openLocalRepository>>, { ok: true }>;
type Upstream = Awaited<ReturnType<typeof localUpstream>>;

async function checkPush(options: CheckOptions, opened: Opened, upstream: Upstream, now: () => number): Promise<CheckResult> {
  const branch = upstream.ok ? upstream.label : (options.branch ?? 'HEAD');
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

async function checkReportCi(options: CheckOptions, opened: Opened, upstream: Upstream, deps: CheckCommandDeps & { now: () => number }): Promise<CheckResult> {
  const env = deps.env ?? process.env;
  const token = env['GITHUB_TOKEN'];
  const branch = options.branch ?? (upstream.ok ? upstream.remoteBranch : 'HEAD');
  const repository = options.github ?? opened.source.repository;
  const task: CheckTask = { repository, commit: opened.commit, ref: branch, knowledge: [] };
  const request = { action: 'report-ci' as const, commit: opened.commit, branch };
  const unknown = (why: string) => runCheck({ task, request, reads: { unavailable: why, now: deps.now }, deadlineMs: CHECK_DEADLINE_MS });
  if (options.github === undefined) return unknown('report-ci reads the checks GitHub has for the commit: name the repository with --github OWNER/NAME (and a token in GITHUB_TOKEN)');
  if (!token) return unknown(`report-ci reads ${options.github} on GitHub: set GITHUB_TOKEN to a token that may read its checks`);
  const [owner = '', name = ''] = options.github.split('/');
  const client = { owner, repo: name, auth: tokenAuth(token), ...(env['GITHUB_API_URL'] ? { baseUrl: env['GITHUB_API_URL'] } : {}), ...(deps.fetch ? { fetch: deps.fetch } : {}) };
  const reads: CheckReads = { source: createGitHubSource({ ...client, reads: 'rest' }), github: createGitHubApi(client), now: deps.now };
  return runCheck({ task, request, reads, deadlineMs: CHECK_DEADLINE_MS });
}
