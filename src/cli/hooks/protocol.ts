/**
 * @module cli/hooks/protocol
 * What one agent's hook protocol is to `groundwork hook`: for each event groundwork answers, the
 * agent's name for it, the hook input as the agent documents it (the fields groundwork reads,
 * checked; the rest passed over, since agents add fields), and the output that adds context to
 * the session. One module per agent (claude-code, codex, gemini-cli, copilot), each citing the
 * agent's docs or code and the version checked; the command (cli/hook) and the tests read them
 * through {@link HOOK_PROTOCOLS}.
 */
import type * as z from 'zod';
import { jsonOutput } from '../json-output.ts';
import type { FieldRule, HookInputSpec, TextRule } from './hook-input.ts';
import type { HookClient, HookReply } from './notice.ts';

/** groundwork's names for the events it answers. */
export const HOOK_EVENTS = ['session-start', 'prompt-submit'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** What groundwork reads of a hook input, whatever the agent calls the fields. */
export interface HookFacts {
  /** The agent's working directory. */
  cwd: string;
  /** The agent's session id; a prompt hook compares against what this session started at. */
  sessionId: string;
  /** Why the session (re)started: `startup`, `resume`, `clear`, `compact` (session-start only). */
  source?: string;
}

export interface EventProtocol {
  /** The event as the agent's configuration names it (`SessionStart`, `BeforeAgent`, `sessionStart`). */
  agentEvent: string;
  /** `source` values the agent documents for the event (its matcher values), for the docs and tests. */
  sources?: readonly string[];
  /** The documented input, read into {@link HookFacts} (cli/hooks/hook-input); a bad field is an issue naming it. */
  input: HookInputSpec;
  /** The documented output, for the tests to hold every reply to. */
  output(): z.ZodType;
  /** The reply that adds `context` to the session. */
  reply(context: string): HookReply;
}

export interface HookProtocol {
  client: HookClient;
  /** How people call the agent. */
  title: string;
  /** The agent version the protocol was checked against. */
  checked: string;
  /** The events whose documented output can add context; absent ones are refused by name. */
  events: Partial<Record<HookEvent, EventProtocol>>;
}

/** Bounded text fields every protocol reads. */
export const HookFields = {
  cwd: { type: 'text', min: [1, 'must not be empty'], max: [4_096, 'must be at most 4096 characters'], without: ['\0', 'must not contain NUL'] },
  sessionId: { type: 'text', min: [1, 'must not be empty'], max: [256, 'must be at most 256 characters'] },
  source: { type: 'text', min: [1, 'must not be empty'], max: [64, 'must be at most 64 characters'] },
  /** The prompt is passed over unread: only its presence and type are checked. */
  prompt: { type: 'text' },
} as const satisfies Record<string, TextRule>;

/** An optional text field groundwork does not read, bounded all the same (zod's own refusal). */
export function optionalText(max: number, nullable = false): TextRule {
  return { type: 'text', max: [max], optional: true, ...(nullable ? { nullable } : {}) };
}

/** The literal event name of an input, refused in words that say which hook this is. */
function eventName(value: string, hook: string): { type: 'literal'; value: string; message: string } {
  return { type: 'literal', value, message: `must be "${value}": this is the ${hook} hook` };
}

/**
 * The session-start and prompt inputs Claude Code, Codex and Gemini CLI share the shape of: their
 * `base` fields, `hook_event_name`, then `source` or `prompt`; snake_case `session_id`.
 */
export function sessionInputs(base: Readonly<Record<string, FieldRule>>, promptEvent: string): { start: HookInputSpec; prompt: HookInputSpec } {
  return {
    start: { fields: { ...base, hook_event_name: eventName('SessionStart', 'session-start'), source: HookFields.source }, facts: { cwd: 'cwd', sessionId: 'session_id', source: 'source' } },
    prompt: { fields: { ...base, hook_event_name: eventName(promptEvent, 'prompt-submit'), prompt: HookFields.prompt }, facts: { cwd: 'cwd', sessionId: 'session_id' } },
  };
}

/** The reply shape Claude Code, Codex and Gemini CLI share: `hookSpecificOutput` named for its event. */
export function hookSpecificReply(event: string, context: string): HookReply {
  return { stdout: jsonOutput({ hookSpecificOutput: { hookEventName: event, additionalContext: context } }), stderr: '', exit: 0 };
}
