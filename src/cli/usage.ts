/**
 * @module cli/usage
 * The top-level help, and what every command prints for a usage error. It imports only
 * terminal-text (which imports nothing), so `groundwork --help` loads no pipeline code.
 */
import { terminalText } from './terminal-text.ts';

/**
 * A usage error: its one line, and the command that shows the options. The whole help after it
 * would push the line that says what was wrong off the screen. The error echoes what was typed,
 * so it is shown as terminal text (an escape sequence in an argument is not acted on).
 *
 * @example
 * usageError('groundwork check', 'unknown action "deploy": one of push, report-ci', 'groundwork check --help')
 * // 'groundwork check: unknown action "deploy": one of push, report-ci\nRun `groundwork check --help` for usage.\n'
 */
export function usageError(prefix: string, error: string, help: string): string {
  return `${prefix}: ${terminalText(error)}\nRun \`${help}\` for usage.\n`;
}

export const COMMANDS_USAGE = `Usage: groundwork <command> [options]

Assembles the first request a coding agent gets for a task on a git repository: the task, the
repository's rules (AGENTS.md chain) and skills, each labeled with its source at a pinned commit.

Commands:
  context   read a local repository and print the assembled turn (the default command)
  run       the same through the real Worker, its Durable Objects and KV, locally in Miniflare
  freshness what changed since a commit in the sources its context held (rules, skills)
  rules     which rule files each coding agent loads, and lints for what they drop (CI: exit 1)
  check     before pushing or reporting CI: has the upstream moved, did CI pass (push, report-ci)
  mcp       the Groundwork MCP server over stdio, for an agent to start (the repository it runs in)
  hook      session-start, prompt-submit: an agent's hook, in its own protocol (never fails)

Run \`groundwork <command> --help\` for a command's options.

Options:
  -h, --help      show this help
  -v, --version   print the version`;
