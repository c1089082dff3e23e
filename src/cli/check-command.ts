/**
 * @module cli/check-command
 * `groundwork check push|report-ci`: what `POST /tasks/:id/checks` answers, for a local
 * repository, through the same checks (`src/checks/`, by way of cli/local-checks, which the local
 * MCP server's `check_before` answers through too). push compares the branch's upstream as the
 * last fetch recorded it with the commit the work was built on, and says it did not fetch;
 * report-ci reads GitHub's check runs and statuses for the commit when given `--github` and a
 * token, and is `unknown` otherwise.
 */
// First: it configures zod before any schema below is built.
import './zod-config.ts';
import { checkLine } from '../checks/describe.ts';
import type { CliIo } from './context-command.ts';
import { CHECK_USAGE, parseCheckArgs } from './check-args.ts';
import { jsonOutput } from './json-output.ts';
import { localCheck } from './local-checks.ts';
import { openLocalRepository } from './open-local.ts';
import { terminalText } from './terminal-text.ts';
import { usageError } from './usage.ts';

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
    stderr(usageError('groundwork check', parsed.error, 'groundwork check --help'));
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
  const result = await localCheck({
    action: options.action,
    opened,
    branch: options.branch,
    github: options.github,
    env: deps.env ?? process.env,
    now: deps.now ?? Date.now,
    githubHint: 'name the repository with --github OWNER/NAME',
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });

  const stdout = options.json ? rawIo.stdout : (text: string) => rawIo.stdout(terminalText(text));
  stdout(options.json ? jsonOutput(result) : `${[checkLine(result), ...result.reasons.slice(1).map((reason) => `- ${reason}`)].join('\n')}\n`);
  return CHECK_EXIT[result.verdict];
}
