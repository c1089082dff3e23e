/**
 * @module cli/check-args
 * `groundwork check push|report-ci` options, parsed strictly and validated with zod; every error
 * names its option. The action comes first, as a word.
 */
import * as z from 'zod';
import { LoginSchema, RepoNameSchema } from '../sources/github/repo-name.ts';
import { parseOptions, type ParsedOptions } from './parse-options.ts';

export const CHECK_USAGE = `Usage: groundwork check push|report-ci --since COMMIT [options]

Reads what one action depends on, for a local repository, and says go, stop or unknown with
the reasons (what POST /tasks/:id/checks answers for a task).

  push       compares where the branch's upstream is, as the last fetch saw it, with the commit
             you built on (--since). It does not fetch: run git fetch first to see pushes since.
  report-ci  reads the check runs and commit statuses GitHub has for exactly --since, and
             whether it is still the head of the branch there. Needs --github and a token in
             GITHUB_TOKEN; without them the answer is unknown.

Options:
  --since COMMIT        push: the commit your work was built on; report-ci: the commit whose
                        CI you would report (e.g. HEAD) (required)
  --repo PATH           repository to read (default: the repository of the current directory)
  --branch NAME         push: the branch to push (default: the one checked out); report-ci:
                        the branch on GitHub the commit must head (default: the upstream's,
                        else the one checked out)
  --github OWNER/NAME   report-ci: the repository on GitHub (API at GITHUB_API_URL, default
                        https://api.github.com)
  --json                print the answer as JSON (the shape POST /tasks/:id/checks answers)
  -h, --help            show this help

Exit codes: 0 go, 3 stop, 1 unknown (nothing could be said for sure, or the repository could
not be read), 2 bad usage.`;

export const CHECK_COMMANDS = ['push', 'report-ci'] as const;

const CheckOptionsSchema = z.object({
  since: z.string().min(1, 'must not be empty').optional(),
  repo: z.string().min(1, 'must not be empty').optional(),
  branch: z.string().min(1, 'must not be empty').optional(),
  github: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      const [owner = '', name = '', ...rest] = value.split('/');
      if (rest.length > 0 || !LoginSchema.safeParse(owner).success || !RepoNameSchema.safeParse(name).success) ctx.addIssue({ code: 'custom', message: 'must be OWNER/NAME of a GitHub repository' });
    }),
  json: z.boolean().default(false),
  help: z.boolean().default(false),
});
export type CheckOptions = z.output<typeof CheckOptionsSchema> & { action: (typeof CHECK_COMMANDS)[number] };

const CHECK_OPTIONS = {
  since: { type: 'string' },
  repo: { type: 'string' },
  branch: { type: 'string' },
  github: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseCheckArgs(argv: readonly string[]): ParsedOptions<CheckOptions> | { ok: true; help: true } {
  const [action, ...rest] = argv;
  if (action === undefined || action === '-h' || action === '--help') return { ok: true, help: true };
  if (!(CHECK_COMMANDS as readonly string[]).includes(action)) return { ok: false, error: `unknown action ${JSON.stringify(action)}: one of ${CHECK_COMMANDS.join(', ')}` };
  const parsed = parseOptions(rest, CHECK_OPTIONS, CheckOptionsSchema);
  if (!parsed.ok) return parsed;
  if (parsed.options.help) return { ok: true, help: true };
  if (parsed.options.since === undefined) return { ok: false, error: `--since: required: ${action === 'push' ? 'the commit your work was built on' : 'the commit whose CI you would report'}` };
  if (action === 'push' && parsed.options.github !== undefined) return { ok: false, error: '--github: applies to report-ci only (push compares with the local record of the upstream)' };
  return { ok: true, options: { ...parsed.options, action: action as CheckOptions['action'] } };
}
