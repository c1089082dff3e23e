/**
 * @module cli/freshness-args
 * `groundwork freshness` options, parsed strictly and validated with zod; every error names its
 * option. The context options (`--cwd`, `--task`, `--skill`, ...) say which sources the context
 * at `--since` held, so the same sources are compared.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { SkillNameSchema, WorkingDirectorySchema } from '../tasks/task-request.ts';
import { DEFAULT_TASK } from './args.ts';

export const FRESHNESS_USAGE = `Usage: npm run freshness -- --since COMMIT [options]   (bin: groundwork freshness)

Compares the sources a task's context at COMMIT held (rules files, selected skills, the skills
index) with REF as it is now, by git blob id, and says which changed. Reads committed objects only.

Options:
  --since COMMIT       the commit the context was read at (required)
  --repo PATH          repository to read (default: .)
  --ref REF            what to compare with, as it is now (default: HEAD)
  --cwd DIR            the task's working directory (default: the root)
  --task TEXT          the task request; $name selects a skill
  --skill NAME         a skill the task selected (repeatable)
  --skills-root GLOB   where skills live (repeatable; default: .agents/skills/*/)
  --agent NAME         agent configuration (default: entry)
  --json               print the report as JSON (the shape GET /tasks/:id/freshness answers)
  -h, --help           show this help

Exit codes: 0 nothing changed, 3 a source changed or was deleted, 1 the check could not be
made (unreadable repository or ref, a source that could not be compared), 2 bad usage.`;

const FreshnessOptionsSchema = z.object({
  since: z.string().min(1, 'must not be empty').optional(),
  repo: z.string().min(1, 'must not be empty').default('.'),
  ref: z.string().min(1, 'must not be empty').default('HEAD'),
  cwd: WorkingDirectorySchema.default(''),
  task: z.string().trim().min(1, 'must not be empty').default(DEFAULT_TASK),
  skill: z.array(SkillNameSchema).default([]),
  'skills-root': z.array(z.string().min(1, 'must not be empty')).default([]),
  agent: z.string().default('entry'),
  json: z.boolean().default(false),
  help: z.boolean().default(false),
});
export type FreshnessOptions = z.output<typeof FreshnessOptionsSchema>;

export function parseFreshnessArgs(argv: readonly string[]): { ok: true; options: FreshnessOptions } | { ok: false; error: string } {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        since: { type: 'string' },
        repo: { type: 'string' },
        ref: { type: 'string' },
        cwd: { type: 'string' },
        task: { type: 'string' },
        skill: { type: 'string', multiple: true },
        'skills-root': { type: 'string', multiple: true },
        agent: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const parsed = FreshnessOptionsSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `--${String(issue?.path[0])}: ${issue?.message ?? 'invalid value'}` };
  }
  if (!parsed.data.help && parsed.data.since === undefined) return { ok: false, error: '--since: required: the commit the context was read at' };
  return { ok: true, options: parsed.data };
}
