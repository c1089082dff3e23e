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
import { lazySchema } from '../../lib/lazy-schema.ts';
import { hookSpecificReply, HookFields, type HookProtocol } from './protocol.ts';

export const GEMINI_CLI_SOURCES = ['startup', 'resume', 'clear'] as const;

const base = () => ({
  session_id: HookFields.sessionId(),
  transcript_path: z.string().max(4_096).optional(),
  cwd: HookFields.cwd(),
  timestamp: z.string().max(64).optional(),
});

const SessionStartInput = lazySchema(() =>
  z
    .looseObject({ ...base(), hook_event_name: z.literal('SessionStart', 'must be "SessionStart": this is the session-start hook'), source: HookFields.source() })
    .transform((input) => ({ cwd: input.cwd, sessionId: input.session_id, source: input.source })),
);

const BeforeAgentInput = lazySchema(() =>
  z
    .looseObject({ ...base(), hook_event_name: z.literal('BeforeAgent', 'must be "BeforeAgent": this is the prompt-submit hook'), prompt: HookFields.prompt() })
    .transform((input) => ({ cwd: input.cwd, sessionId: input.session_id })),
);

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

const SessionStartOutput = lazySchema(() => output('SessionStart'));
const BeforeAgentOutput = lazySchema(() => output('BeforeAgent'));

export const GEMINI_CLI: HookProtocol = {
  client: 'gemini-cli',
  title: 'Gemini CLI',
  checked: '0.61.0',
  events: {
    'session-start': {
      agentEvent: 'SessionStart',
      sources: GEMINI_CLI_SOURCES,
      input: () => SessionStartInput,
      output: () => SessionStartOutput,
      reply: (context) => hookSpecificReply('SessionStart', context),
    },
    'prompt-submit': {
      agentEvent: 'BeforeAgent',
      input: () => BeforeAgentInput,
      output: () => BeforeAgentOutput,
      reply: (context) => hookSpecificReply('BeforeAgent', context),
    },
  },
};
