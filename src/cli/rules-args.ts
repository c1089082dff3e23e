/**
 * @module cli/rules-args
 * `groundwork rules` options, parsed strictly and validated with zod; every error names its option.
 */
import * as z from 'zod';
import { CLIENT_NAMES, parseClient, type ClientName } from '../context/client.ts';
import { FocusPathsSchema } from '../tasks/task-request.ts';
import { parseOptions, type ParsedOptions } from './parse-options.ts';

export const RULES_USAGE = `Usage: groundwork rules [options]

Prints the rules matrix of a commit: every rule file (AGENTS.md, CLAUDE.md, GEMINI.md, Copilot
instructions, Cursor and Claude rules, imports), what Groundwork gives, and what each coding agent
loads by itself; then the lints: what the agents would drop without a word (frontmatter they cannot
parse, globs that match no file, imports that do not resolve, files over a size cap, rules no agent
loads, one directory's files read differently by different agents). Reads committed objects only.

Options:
  --path PATH          a path the change touches (repeatable); without it, every directory of
                       the repository that holds a rule file
  --client NAME        an agent whose column and lints count (repeatable): codex, claude-code,
                       gemini-cli, copilot, cursor (default: all of them)
  --ref REF            the commit to read (default: HEAD)
  --cwd DIR            where the agents start (default: where you are in the repository)
  --repo PATH          repository to read (default: the repository of the current directory)
  --rule-file NAME     instruction file names, in order of preference (repeatable)
  --json               print the matrix as JSON (files with their cells, lints)
  -h, --help           show this help

Exit codes: 0 no lint of severity error, 1 a lint of severity error (or the repository could not
be read), 2 bad usage.`;

const RulesOptionsSchema = z.object({
  repo: z.string().min(1, 'must not be empty').optional(),
  ref: z.string().min(1, 'must not be empty').default('HEAD'),
  cwd: z.string().max(1024, 'must be at most 1024 characters').optional(),
  path: FocusPathsSchema.default([]),
  client: z.array(z.string()).default([]),
  'rule-file': z.array(z.string().min(1, 'must not be empty')).default([]),
  json: z.boolean().default(false),
  help: z.boolean().default(false),
});
export type RulesOptions = Omit<z.output<typeof RulesOptionsSchema>, 'client'> & { clients: ClientName[] };

const RULES_OPTIONS = {
  repo: { type: 'string' },
  ref: { type: 'string' },
  cwd: { type: 'string' },
  path: { type: 'string', multiple: true },
  client: { type: 'string', multiple: true },
  'rule-file': { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const AGENTS = CLIENT_NAMES.filter((name) => name !== 'none');

export function parseRulesArgs(argv: readonly string[]): ParsedOptions<RulesOptions> {
  const parsed = parseOptions(argv, RULES_OPTIONS, RulesOptionsSchema);
  if (!parsed.ok) return parsed;
  const { client, ...rest } = parsed.options;
  const clients: ClientName[] = [];
  for (const text of client) {
    const one = parseClient(text);
    if (!one.ok) return { ok: false, error: `--client ${text}: ${one.reason}` };
    if (one.client.name === 'none') return { ok: false, error: `--client ${text}: none is Groundwork alone, always shown; name an agent: ${AGENTS.join(', ')}` };
    if (one.client.version !== undefined || one.client.variant !== undefined) return { ok: false, error: `--client ${text}: the matrix is for each agent as its profile was checked; name it without @version or :host` };
    if (!clients.includes(one.client.name)) clients.push(one.client.name);
  }
  return { ok: true, options: { ...rest, clients } };
}
