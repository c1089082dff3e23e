/**
 * @module cli/hook
 * `groundwork hook session-start`: an agent's session-start hook. Reads the hook input JSON on
 * stdin (Claude Code's SessionStart shape: `cwd`, `source`, `session_id`, …), assembles the
 * context of the repository at that directory at HEAD (the CLI's local assembly, as
 * `groundwork context` prints it) and prints the hook output that adds it to the session:
 * `hookSpecificOutput.additionalContext`. It never fails the session: whatever goes wrong (no
 * repository there, bad input, the deadline) prints a one-line notice as the hook's
 * `systemMessage`, and the exit code is 0.
 */
// First: it configures zod before any schema below is built.
import './zod-config.ts';
import * as z from 'zod';
import { withDeadline } from '../lib/deadline.ts';
import { turnContext } from '../mcp/answers.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import { cliAgent } from './cli-agent.ts';
import type { CliIo } from './context-command.ts';
import { jsonOutput } from './json-output.ts';
import { assembleLocalTurn } from './local-turn.ts';
import { openLocalRepository } from './open-local.ts';

export const HOOK_USAGE = `Usage: groundwork hook session-start [--agent NAME] [--deadline-ms N]

Reads a session-start hook's input JSON on stdin (cwd, source, session_id), assembles the
context of the repository at cwd at HEAD, and prints it as the hook output Claude Code reads:
{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"…"}}. On any error it
prints a one-line notice ({"systemMessage":"groundwork: …"}) and exits 0.`;

/** What of the hook input this reads; the rest (transcript_path, model, …) is ignored. */
const HookInputSchema = z.looseObject({
  cwd: z.string().min(1).max(4_096),
  source: z.string().max(64).optional(),
  session_id: z.string().max(256).optional(),
});

const MAX_INPUT_BYTES = 1024 * 1024;
const DEFAULT_DEADLINE_MS = 20_000;

export interface HookInput {
  /** The hook input as the agent wrote it to stdin. */
  stdin(): Promise<string>;
}

export async function runHookCommand(argv: readonly string[], io: CliIo, input: HookInput): Promise<number> {
  const [event, ...rest] = argv;
  if (event === undefined || event === '-h' || event === '--help') {
    io.stdout(`${HOOK_USAGE}\n`);
    return 0;
  }
  // Even bad usage is a notice, not a failure: a typo in settings must not stop a session.
  const notice = (message: string): number => {
    io.stdout(jsonOutput({ systemMessage: `groundwork: ${message}` }));
    io.stderr(`groundwork hook: ${message}\n`);
    return 0;
  };
  if (event !== 'session-start') return notice(`unknown hook "${event}" (the hook groundwork answers is session-start)`);
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout(`${HOOK_USAGE}\n`);
    return 0;
  }
  const options = parseOptions(rest);
  if (!options.ok) return notice(options.error);
  try {
    const context = await withDeadline(options.deadlineMs, () => `assembling the context took longer than ${options.deadlineMs} ms`, () => sessionContext(input, options.agent));
    if (!context.ok) return notice(context.error);
    io.stdout(jsonOutput({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context.text } }));
    return 0;
  } catch (error) {
    return notice(oneLine(error instanceof Error ? error.message : String(error)));
  }
}

async function sessionContext(input: HookInput, agentName: string): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  const raw = await input.stdin();
  if (Buffer.byteLength(raw) > MAX_INPUT_BYTES) return { ok: false, error: `the hook input is over ${MAX_INPUT_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'the hook input on stdin is not JSON' };
  }
  const parsed = HookInputSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `the hook input has no usable cwd (${parsed.error.issues[0]?.message ?? 'invalid'})` };
  const agent = cliAgent(agentName);
  if (!agent.ok) return { ok: false, error: `--agent: ${agent.error}` };
  const opened = await openLocalRepository({ repo: parsed.data.cwd, ref: 'HEAD', cwd: parsed.data.cwd });
  if (!opened.ok) return { ok: false, error: oneLine(opened.error) };
  const snapshot = opened.source.snapshot(opened.commit);
  const request = `Session ${parsed.data.source ?? 'start'} in ${opened.cwd || 'the repository root'}: no task named yet. Read this before you plan.`;
  const turn = await assembleLocalTurn({ registry: createDefaultRegistry(), agent: agent.agent, opened, snapshot, ref: 'HEAD', request, paths: [], skills: [], trusted: true, settings: {} });
  const text = turnContext(turn);
  if (text === undefined) return { ok: false, error: 'the assembly produced no context' };
  return { ok: true, text: `${text}\n\n(Groundwork context of ${opened.root} at ${opened.commit}, digest ${turn.digest}.)` };
}

type HookOptions = { ok: true; agent: string; deadlineMs: number } | { ok: false; error: string };

function parseOptions(argv: readonly string[]): HookOptions {
  let agent = 'entry';
  let deadlineMs = DEFAULT_DEADLINE_MS;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--agent' && value !== undefined) {
      agent = value;
      i++;
    } else if (arg === '--deadline-ms' && value !== undefined && /^[1-9][0-9]{0,5}$/.test(value)) {
      deadlineMs = Number(value);
      i++;
    } else return { ok: false, error: `bad option ${arg}${arg === '--deadline-ms' ? ' (milliseconds, 1 to 999999)' : ''}` };
  }
  return { ok: true, agent, deadlineMs };
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 500);
