/**
 * @module cli/args
 * `groundwork context` options: parsed strictly, validated with zod, every error naming its option.
 */
import * as z from 'zod';
import { ClientSchema } from '../context/client-schema.ts';
import { FORMATS } from '../context/formats/format.ts';
import { FocusPathsSchema, SkillNameSchema } from '../tasks/task-request.ts';
import { parseOptions } from './parse-options.ts';

export const DEFAULT_TASK = 'Get oriented in this repository: follow its rules and use its skills where they apply.';

export const USAGE = `Usage: groundwork context [options]   (or: groundwork [options])

Prints the first request an agent would get for a task on a local repository, read at a commit.

Options:
  --repo PATH          repository to read (default: the repository of the current directory)
  --ref REF            commit, branch or tag to pin; HEAD~1, main^2 too (default: HEAD)
  --cwd DIR            working directory inside the repository (default: where you are in it);
                       one that exists only in the working tree takes its nearest committed
                       directory's rules
  --path PATH          a file or directory the task touches besides --cwd: its directories'
                       rules are read too (repeatable, at most 64)
  --task TEXT          the task request; $name selects a skill (default: a general orientation task)
  --skill NAME         select a skill by name (repeatable)
  --skills-root GLOB   where skills live, e.g. "skills/*/" (repeatable; replaces the default roots
                       .agents, .claude, .codex, .gemini, .opencode /skills/*/ and skills/*/)
  --rule-file NAME     instruction file name, first present wins in each directory (repeatable;
                       replaces the default AGENTS.override.md, AGENTS.md, AGENTS.MD, CLAUDE.md,
                       CLAUDE.MD, GEMINI.md)
  --agent NAME         agent configuration: entry, reviewer, explorer, communicator, or one
                       the bundled agents.json declares (default: entry)
  --client NAME        the coding agent that reads the context: codex, claude-code, gemini-cli,
                       copilot (copilot:vscode, copilot:cli), cursor, or none (default), with an
                       optional @version (claude-code@2.1.332); the rules then give only what it
                       does not load itself, and every rule file gets a verdict per client
  --facts FILE         what the host knows about this run (runtime versions, a devbox, the CI):
                       a JSON array of facts as POST /tasks takes them, given by the host provider
  --untrusted          treat the task as untrusted: no repository reads
  --json               print the assembled-turn JSON instead of the human view
  --summary            print a short view instead: the pinned commit, every source found
                       (applied or why not, with blob and tokens), the outcome table and the
                       request's composition as a text bar; no prompt text
  --format FORMAT      print the request body for a model API instead: anthropic,
                       openai-responses or openai-chat (add model and limits, then send it)
  -h, --help           show this help`;

/** What every command that assembles a task on a local repository takes. */
export const TaskOptionsShape = {
  repo: z.string().min(1, 'must not be empty').optional(),
  ref: z.string().min(1, 'must not be empty').default('HEAD'),
  // Checked against the repository it names (an absolute path inside it is accepted): cli/cwd-option.
  cwd: z.string().max(1024, 'must be at most 1024 characters').optional(),
  path: FocusPathsSchema.default([]),
  task: z.string().trim().min(1, 'must not be empty').default(DEFAULT_TASK),
  skill: z.array(SkillNameSchema).default([]),
  agent: z.string().default('entry'),
  client: ClientSchema.optional(),
  untrusted: z.boolean().default(false),
  json: z.boolean().default(false),
  help: z.boolean().default(false),
};

export const CliOptionsSchema = z.object({
  ...TaskOptionsShape,
  'skills-root': z.array(z.string().min(1, 'must not be empty')).default([]),
  'rule-file': z.array(z.string().min(1, 'must not be empty')).default([]),
  format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional(),
  summary: z.boolean().default(false),
  facts: z.string().min(1, 'must not be empty').optional(),
});
export type CliOptions = z.output<typeof CliOptionsSchema>;

export type ParsedArgs = { ok: true; options: CliOptions } | { ok: false; error: string };

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const parsed = parseOptions(argv, CLI_OPTIONS, CliOptionsSchema);
  if (parsed.ok && parsed.options.json && parsed.options.format) return { ok: false, error: '--format: cannot be combined with --json (both choose what is printed)' };
  if (parsed.ok && parsed.options.summary && (parsed.options.json || parsed.options.format)) {
    return { ok: false, error: `--summary: cannot be combined with ${parsed.options.json ? '--json' : '--format'} (both choose what is printed)` };
  }
  return parsed;
}

export const CLI_OPTIONS = {
  repo: { type: 'string' },
  ref: { type: 'string' },
  cwd: { type: 'string' },
  path: { type: 'string', multiple: true },
  task: { type: 'string' },
  skill: { type: 'string', multiple: true },
  'skills-root': { type: 'string', multiple: true },
  'rule-file': { type: 'string', multiple: true },
  agent: { type: 'string' },
  client: { type: 'string' },
  untrusted: { type: 'boolean' },
  json: { type: 'boolean' },
  format: { type: 'string' },
  summary: { type: 'boolean' },
  facts: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
