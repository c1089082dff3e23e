/**
 * @module cli/hook
 * `groundwork hook session-start|prompt-submit --client NAME`: an agent's hook, in that agent's
 * own protocol (cli/hooks/: Claude Code, Codex, Gemini CLI, Copilot). It reads the hook input JSON
 * on stdin and prints what adds context to the session:
 * - `session-start`: the context of the repository at the agent's working directory at HEAD (the
 *   CLI's local assembly, as `groundwork context` prints it). Agents that say why the session
 *   started get it again after a compaction (`source: "compact"`), so the rules come back.
 * - `prompt-submit`: one line when the repository moved under the session in a way that matters
 *   (a rules or skill file it was given changed, the rules that apply changed for its agent, or
 *   another branch was checked out), from the freshness check; nothing otherwise.
 * It never fails the session. Outside a repository it prints nothing. Anything that goes wrong
 * (bad input, an unreadable repository, the deadline) is a one-line notice in the agent's
 * documented way (cli/hooks/notice), and the session goes on.
 */
// First: it configures zod before any schema below is built.
import './zod-config.ts';
import { withDeadline } from '../lib/deadline.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import { discoverRepository } from '../sources/git/discover.ts';
import { cliAgent } from './cli-agent.ts';
import type { CliIo } from './context-command.ts';
import { checkedOutBranch } from './local-upstream.ts';
import { branchMoved } from './hooks/branch-moved.ts';
import { readHookInput, type HookInputSpec, type ReadInput } from './hooks/hook-input.ts';
import { DEFAULT_HOOK_CLIENT, noticeClient, parseHookClient, type HookClientRef } from './hooks/hook-client.ts';
import { HOOK_CLIENTS, hookNotice, oneLine, SILENT, type HookClient, type HookReply } from './hooks/notice.ts';
import { HOOK_EVENTS, type HookEvent, type HookFacts } from './hooks/protocol.ts';
import { HOOK_PROTOCOLS } from './hooks/protocols.ts';
import { sessionContext, sessionRuleSets } from './hooks/session-context.ts';
import { recordStore, type RecordStore } from './hooks/session-record.ts';

export const HOOK_USAGE = `Usage: groundwork hook session-start|prompt-submit [--client NAME] [--agent NAME] [--deadline-ms N]

An agent's hook, in that agent's protocol. Reads the hook input JSON on stdin and prints the
hook output that adds context to the session:

  session-start   the context of the repository at the input's cwd, at HEAD (again after a
                  compaction, where the agent says so)
  prompt-submit   one line when a rules or skill file the session was given changed under it,
                  or another branch was checked out, then how the rules that apply changed for
                  the agent (one line each); nothing otherwise

Options:
  --client NAME      the agent running the hook: ${HOOK_CLIENTS.join(', ')} (default claude-code);
                     NAME@VERSION names its version too. The context is what that agent
                     does not load itself: the rule files it loads are named, not repeated
  --agent NAME       the Groundwork agent configuration to assemble for (default entry)
  --deadline-ms N    how long to assemble at most (default 20000)

It never fails the session: outside a repository it prints nothing, and any error is a one-line
notice in the agent's own way (a JSON systemMessage, exit 0; Copilot: stderr, exit 2).`;

/** At most this much of stdin is read; a larger input is refused, not truncated. */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;
const DEFAULT_DEADLINE_MS = 20_000;
/** The prompt hook runs before every prompt: it compares blob ids, so it is quick or it says so. */
const PROMPT_DEADLINE_MS = 10_000;

export interface HookInput {
  /** The hook input as the agent wrote it, read up to `maxBytes` + 1 bytes. */
  stdin(maxBytes: number): Promise<string>;
}

export interface HookDeps {
  records?: RecordStore;
  now?: () => number;
}

export async function runHookCommand(argv: readonly string[], io: CliIo, input: HookInput, deps: HookDeps = {}): Promise<number> {
  const [event, ...rest] = argv;
  if (event === undefined || event === '-h' || event === '--help' || rest.includes('-h') || rest.includes('--help')) {
    io.stdout(`${HOOK_USAGE}\n`);
    return 0;
  }
  // Even bad usage is a notice, not a failure: a typo in settings must not stop a session.
  const options = parseOptions(rest);
  const client = options.ok ? options.client.name : noticeClient(rest);
  const send = (reply: HookReply): number => {
    io.stdout(reply.stdout);
    io.stderr(reply.stderr);
    return reply.exit;
  };
  if (!(HOOK_EVENTS as readonly string[]).includes(event)) return send(hookNotice(client, `unknown hook "${oneLine(event).slice(0, 60)}" (groundwork answers ${HOOK_EVENTS.join(' and ')})`));
  if (!options.ok) return send(hookNotice(client, options.error));
  const protocol = HOOK_PROTOCOLS[client];
  const spec = protocol.events[event as HookEvent];
  if (spec === undefined) return send(hookNotice(client, `${protocol.title} documents no ${event} hook whose output can add context; configure session-start only`));
  try {
    const reply = await withDeadline(options.deadlineMs, () => `took longer than ${options.deadlineMs} ms`, async () => {
      const facts = await readInput(input, spec.input);
      if (!facts.ok) return hookNotice(client, facts.error);
      return event === 'session-start' ? startSession(facts.facts, options, deps, spec.reply) : promptSubmitted(facts.facts, options, deps, spec.reply);
    });
    return send(reply);
  } catch (error) {
    return send(hookNotice(client, error instanceof Error ? error.message : String(error)));
  }
}

/** stdin as the agent's documented input; every problem names the field (`the hook input's source: …`). */
async function readInput(input: HookInput, spec: HookInputSpec): Promise<ReadInput> {
  const raw = await input.stdin(MAX_HOOK_INPUT_BYTES);
  if (Buffer.byteLength(raw) > MAX_HOOK_INPUT_BYTES) return { ok: false, error: `the hook input is over ${MAX_HOOK_INPUT_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: raw.trim() === '' ? 'the hook input on stdin is empty (run by an agent, it is a JSON object)' : 'the hook input on stdin is not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, error: 'the hook input on stdin is not a JSON object' };
  return readHookInput(spec, json);
}

async function startSession(facts: HookFacts, options: HookOptions, deps: HookDeps, reply: (context: string) => HookReply): Promise<HookReply> {
  const agent = cliAgent(options.agent);
  if (!agent.ok) return hookNotice(options.client.name, `--agent: ${agent.error}`);
  const context = await sessionContext({ registry: createDefaultRegistry(), agent: agent.agent, cwd: facts.cwd, source: facts.source, client: options.client });
  if (context.kind === 'outside') return SILENT;
  if (context.kind === 'failed') return hookNotice(options.client.name, context.error);
  (deps.records ?? recordStore()).write(facts.sessionId, { root: context.root, cwd: context.cwd, commit: context.commit, told: context.commit, ...(await branchOf(context.root)), sources: context.sources });
  return reply(context.text);
}

async function promptSubmitted(facts: HookFacts, options: HookOptions, deps: HookDeps, reply: (context: string) => HookReply): Promise<HookReply> {
  const client = options.client.name;
  const found = discoverRepository(facts.cwd);
  if (!found.ok) return SILENT;
  const records = deps.records ?? recordStore();
  // No record: the session did not start with groundwork's hook here, so there is nothing to compare.
  const record = records.read(facts.sessionId, found.root);
  if (record === undefined) return SILENT;
  const agent = cliAgent(options.agent);
  const ruleSets = () => (agent.ok ? sessionRuleSets(record, { registry: createDefaultRegistry(), agent: agent.agent, client: options.client }) : undefined);
  const answer = await branchMoved({ record, ruleSets, deadlineMs: PROMPT_DEADLINE_MS, now: deps.now ?? Date.now });
  if (answer.kind === 'failed') return hookNotice(client, answer.error);
  if (answer.record !== record) records.write(facts.sessionId, answer.record);
  return answer.kind === 'moved' ? reply(answer.line) : SILENT;
}

async function branchOf(root: string): Promise<{ branch?: string }> {
  const branch = await checkedOutBranch(root);
  return branch === undefined ? {} : { branch };
}

interface HookOptions {
  client: HookClientRef;
  agent: string;
  deadlineMs: number;
}

function parseOptions(argv: readonly string[]): ({ ok: true } & HookOptions) | { ok: false; error: string } {
  let client = DEFAULT_HOOK_CLIENT;
  let agent = 'entry';
  let deadlineMs = DEFAULT_DEADLINE_MS;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = inline ?? argv[i + 1];
    if (flag !== '--client' && flag !== '--agent' && flag !== '--deadline-ms') return { ok: false, error: `unknown option ${oneLine(arg).slice(0, 60)} (options: --client, --agent, --deadline-ms)` };
    if (value === undefined) return { ok: false, error: `${flag} needs a value` };
    if (inline === undefined) i++;
    if (flag === '--client') {
      const parsed = parseHookClient(value);
      if (!parsed.ok) return parsed;
      client = parsed.client;
    } else if (flag === '--agent') agent = value;
    else if (/^[1-9][0-9]{0,5}$/.test(value)) deadlineMs = Number(value);
    else return { ok: false, error: '--deadline-ms: milliseconds, 1 to 999999' };
  }
  return { ok: true, client, agent, deadlineMs };
}
