/**
 * @module cli/hooks/gemini-cli
 * Gemini CLI's hook protocol, as docs/hooks/reference.md of @google/gemini-cli@0.61.0 documents it
 * (shipped in the package's bundle/docs) and its HookRunner runs it:
 * - Base input: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`.
 * - `SessionStart` adds `source`: startup, resume or clear. There is no `compact`: `PreCompress` is
 *   advisory only, so a compressed session does not get the context again from this hook.
 * - `BeforeAgent` (after a prompt is submitted) adds `prompt`; its
 *   `hookSpecificOutput.additionalContext` is appended to that turn's prompt.
 * - Output (exit 0, JSON only on stdout): `hookSpecificOutput.additionalContext`, with the common
 *   `systemMessage`, `suppressOutput`, `continue`, `stopReason`, `decision`, `reason`. Stdout that is
 *   not JSON is shown as a `systemMessage`, and so is stderr when stdout is empty, which is why a
 *   silent hook prints nothing on either. The context is HTML-escaped (`<` becomes `&lt;`) before
 *   the model reads it (HookOutput.getAdditionalContext).
 */
import * as z from 'zod';
import { once } from '../../lib/once.ts';
import { hookSpecificReply, HookFields, optionalText, sessionInputs, type HookProtocol } from './protocol.ts';

export const GEMINI_CLI_SOURCES = ['startup', 'resume', 'clear'] as const;

const base = {
  session_id: HookFields.sessionId,
  transcript_path: optionalText(4_096),
  cwd: HookFields.cwd,
  timestamp: optionalText(64),
};

const INPUTS = sessionInputs(base, 'BeforeAgent');

const output = (event: 'SessionStart' | 'BeforeAgent') =>
  z.strictObject({
    systemMessage: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    decision: z.enum(['allow', 'deny', 'block']).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal(event), additionalContext: z.string().optional() }).optional(),
  });

const SessionStartOutput = once(() => output('SessionStart'));
const BeforeAgentOutput = once(() => output('BeforeAgent'));

export const GEMINI_CLI: HookProtocol = {
  client: 'gemini-cli',
  title: 'Gemini CLI',
  checked: '0.61.0',
  events: {
    'session-start': {
      agentEvent: 'SessionStart',
      sources: GEMINI_CLI_SOURCES,
      input: INPUTS.start,
      output: SessionStartOutput,
      reply: (context) => hookSpecificReply('SessionStart', context),
    },
    'prompt-submit': {
      agentEvent: 'BeforeAgent',
      input: INPUTS.prompt,
      output: BeforeAgentOutput,
      reply: (context) => hookSpecificReply('BeforeAgent', context),
    },
  },
};
