/**
 * @module cli/args
 * `groundwork context` options: parsed strictly, validated with zod, every error naming its option.
 */
import { z } from 'zod';
import { FORMATS } from '../context/formats/format.ts';
import { SkillNameSchema, WorkingDirectorySchema } from '../tasks/task-request.ts';
import { parseOptions } from './parse-options.ts';

export const DEFAULT_TASK = 'Get oriented in this repository: follow its rules and use its skills where they apply.';

export const USAGE = `Usage: npm run context -- [options]   (bin: groundwork)

Prints the first request an agent would get for a task on a local repository, read at a commit.

Options:
  --repo PATH          repository to read (default: .)
  --ref REF            commit, branch or tag to pin (default: HEAD)
  --cwd DIR            working directory inside the repository (default: the root)
  --task TEXT          the task request; $name selects a skill (default: a general orientation task)
  --skill NAME         select a skill by name (repeatable)
  --skills-root GLOB   where skills live, e.g. "skills/*/" (repeatable; default: .agents/skills/*/)
  --agent NAME         agent configuration: entry, reviewer, explorer, communicator (default: entry)
  --untrusted          treat the task as untrusted: no repository reads
  --json               print the assembled-turn JSON instead of the human view
  --format FORMAT      print the request body for a model API instead: anthropic,
                       openai-responses or openai-chat (add model and limits, then send it)
  -h, --help           show this help`;

/** What every command that assembles a task on a local repository takes (`context`, `freshness`). */
export const TaskOptionsShape = {
  repo: z.string().min(1, 'must not be empty').default('.'),
  ref: z.string().min(1, 'must not be empty').default('HEAD'),
  cwd: WorkingDirectorySchema.default(''),
  task: z.string().trim().min(1, 'must not be empty').default(DEFAULT_TASK),
  skill: z.array(SkillNameSchema).default([]),
  'skills-root': z.array(z.string().min(1, 'must not be empty')).default([]),
  agent: z.string().default('entry'),
  json: z.boolean().default(false),
  help: z.boolean().default(false),
};

/** The parseArgs spec of `TaskOptionsShape`. */
export const TASK_OPTIONS = {
  repo: { type: 'string' },
  ref: { type: 'string' },
  cwd: { type: 'string' },
  task: { type: 'string' },
  skill: { type: 'string', multiple: true },
  'skills-root': { type: 'string', multiple: true },
  agent: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const CliOptionsSchema = z.object({
  ...TaskOptionsShape,
  untrusted: z.boolean().default(false),
  format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional(),
});
export type CliOptions = z.output<typeof CliOptionsSchema>;

export type ParsedArgs = { ok: true; options: CliOptions } | { ok: false; error: string };

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const parsed = parseOptions(argv, CLI_OPTIONS, CliOptionsSchema);
  if (parsed.ok && parsed.options.json && parsed.options.format) return { ok: false, error: '--format: cannot be combined with --json (both choose what is printed)' };
  return parsed;
}

const CLI_OPTIONS = { ...TASK_OPTIONS, untrusted: { type: 'boolean' }, format: { type: 'string' } } as const;
