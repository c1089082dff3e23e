/**
 * @module cli/run/run-args
 * `groundwork run` options, parsed strictly and validated with zod; errors name the option.
 */
import * as z from 'zod';
import { TaskOptionsShape } from '../args.ts';
import { parseOptions, type ParsedOptions } from '../parse-options.ts';

export const RUN_USAGE = `Usage: groundwork run [options]

Boots the real Worker with its Durable Objects and KV in Miniflare (state kept between runs),
serves the local repository to it over smart HTTP on loopback, creates the task through the REST
API, shows progress while it assembles, and prints the assembled turn.

Options:
  --repo PATH      repository to read (default: the repository of the current directory)
  --ref REF        commit, branch or tag to pin; HEAD~1, main^2 too (default: HEAD)
  --cwd DIR        working directory inside the repository (default: where you are in it)
  --path PATH      a file or directory the task touches besides --cwd (repeatable, at most 64)
  --task TEXT      the task request; $name selects a skill (default: a general orientation task)
  --skill NAME     select a skill by name (repeatable)
  --agent NAME     entry, reviewer, explorer, communicator, or one agents.json declares
                   (default: entry)
  --client NAME    the coding agent that reads the context (codex, claude-code, gemini-cli,
                   copilot, cursor; default none), optionally @version: the rules give only
                   what it does not load itself
  --untrusted      treat the task as untrusted: no repository reads
  --facts FILE     what the host knows about this run: a JSON array of facts as POST /tasks takes them
  --turns N        assemble turns 0..N-1 through the turn protocol (default: 1)
  --state DIR      where Durable Object and KV state persist (default: .groundwork/state in the repository)
  --port N         port of the local service (default: a free one)
  --keep           keep the service running after the turn; prints its URL and token (Ctrl-C stops)
  --json           print the assembled-turn JSON (an array with --turns above 1)
  -h, --help       show this help`;

const RunOptionsSchema = z.object({
  ...TaskOptionsShape,
  turns: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(1),
  state: z.string().min(1, 'must not be empty').optional(),
  port: z.coerce.number().int('must be a whole number').min(0).max(65535, 'must be a port number').default(0),
  keep: z.boolean().default(false),
  facts: z.string().min(1, 'must not be empty').optional(),
});
export type RunOptions = z.output<typeof RunOptionsSchema>;

export function parseRunArgs(argv: readonly string[]): ParsedOptions<RunOptions> {
  return parseOptions(argv, RUN_OPTIONS, RunOptionsSchema);
}

const RUN_OPTIONS = {
  repo: { type: 'string' },
  ref: { type: 'string' },
  cwd: { type: 'string' },
  path: { type: 'string', multiple: true },
  task: { type: 'string' },
  skill: { type: 'string', multiple: true },
  agent: { type: 'string' },
  client: { type: 'string' },
  untrusted: { type: 'boolean' },
  turns: { type: 'string' },
  state: { type: 'string' },
  port: { type: 'string' },
  keep: { type: 'boolean' },
  facts: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
