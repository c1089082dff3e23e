/**
 * @module cli/freshness-args
 * `groundwork freshness` options, parsed strictly and validated with zod; every error names its
 * option. The context options (`--cwd`, `--task`, `--skill`, `--skills-root`, ...) say which
 * sources the context at `--since` held, so the same sources are compared.
 */
import * as z from 'zod';
import { CLI_OPTIONS, CliOptionsSchema } from './args.ts';
import { parseOptions, type ParsedOptions } from './parse-options.ts';

export const FRESHNESS_USAGE = `Usage: groundwork freshness --since COMMIT [options]

Compares the sources a task's context at COMMIT held (rules files, selected skills, the skills
index) with REF as it is now, by git blob id, and says which changed. Reads committed objects only.

Options:
  --since COMMIT       the commit the context was read at, e.g. HEAD~1 (required)
  --repo PATH          repository to read (default: the repository of the current directory)
  --ref REF            what to compare with, as it is now (default: HEAD)
  --cwd DIR            the task's working directory (default: where you are in it)
  --task TEXT          the task request; $name selects a skill
  --skill NAME         a skill the task selected (repeatable)
  --skills-root GLOB   where skills live (repeatable)
  --rule-file NAME     instruction file names, in order of preference (repeatable)
  --agent NAME         agent configuration (default: entry)
  --client NAME        the coding agent the context was for (codex, claude-code, …): its
                       rules were the complement of what that client loads itself
  --json               print the report as JSON (the shape GET /tasks/:id/freshness answers)
  -h, --help           show this help

Exit codes: 0 nothing changed, 3 a source changed or was deleted, 1 the check could not be
made (unreadable repository or ref, a source that could not be compared), 2 bad usage.`;

/** The context options, which decide which sources a context held; what to print is freshness's own. */
const FreshnessOptionsSchema = CliOptionsSchema.omit({ untrusted: true, format: true, facts: true }).extend({
  since: z.string().min(1, 'must not be empty').optional(),
});
export type FreshnessOptions = z.output<typeof FreshnessOptionsSchema>;

const { untrusted: _untrusted, format: _format, facts: _facts, ...CONTEXT_OPTIONS } = CLI_OPTIONS;
const FRESHNESS_OPTIONS = { ...CONTEXT_OPTIONS, since: { type: 'string' } } as const;

export function parseFreshnessArgs(argv: readonly string[]): ParsedOptions<FreshnessOptions> {
  const parsed = parseOptions(argv, FRESHNESS_OPTIONS, FreshnessOptionsSchema);
  if (parsed.ok && !parsed.options.help && parsed.options.since === undefined) return { ok: false, error: '--since: required: the commit the context was read at' };
  return parsed;
}
