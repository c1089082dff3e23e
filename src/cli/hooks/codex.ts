/**
 * @module cli/hooks/codex
 * Codex's hook protocol, as the JSON Schemas Codex 0.171.0 ships in its binary state it
 * (`session-start.command.input/output`, `user-prompt-submit.command.input/output`, generated from
 * openai/codex codex-rs/hooks/schema/generated/) and developers.openai.com/codex/hooks describes:
 * - Hooks are on by default (`[features] hooks`, stable; `codex_hooks` is its deprecated alias),
 *   configured in `hooks.json` or `[hooks]` next to each config layer (`~/.codex/`, a trusted
 *   project's `.codex/`), and a hook runs only once it is reviewed and trusted in `/hooks`.
 * - `SessionStart` input: `session_id`, `transcript_path` (string or null), `cwd`,
 *   `hook_event_name`, `model`, `permission_mode`, `source` (startup, resume, clear, compact, fork:
 *   `compact` since openai/codex#21272, so the context comes back after compaction).
 * - `UserPromptSubmit` input: the same and `prompt`, `turn_id`.
 * - Output: `hookSpecificOutput: { hookEventName, additionalContext }`, `continue`, `stopReason`,
 *   `suppressOutput`, `systemMessage`; no other field (`additionalProperties: false`).
 * Hook text over about 2,500 tokens (10,000 bytes) is written to `$CODEX_HOME/hook_outputs/` and
 * the model gets a head-and-tail preview with its path (codex-rs/hooks/src/output_spill.rs).
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { hookSpecificReply, HookFields, type HookProtocol } from './protocol.ts';

export const CODEX_SOURCES = ['startup', 'resume', 'clear', 'compact', 'fork'] as const;

const base = () => ({
  session_id: HookFields.sessionId(),
  transcript_path: z.string().max(4_096).nullable().optional(),
  cwd: HookFields.cwd(),
  model: z.string().max(256).optional(),
  permission_mode: z.string().max(64).optional(),
});

const SessionStartInput = lazySchema(() =>
  z
    .looseObject({ ...base(), hook_event_name: z.literal('SessionStart', 'must be "SessionStart": this is the session-start hook'), source: HookFields.source() })
    .transform((input) => ({ cwd: input.cwd, sessionId: input.session_id, source: input.source })),
);

const PromptSubmitInput = lazySchema(() =>
  z
    .looseObject({ ...base(), hook_event_name: z.literal('UserPromptSubmit', 'must be "UserPromptSubmit": this is the prompt-submit hook'), prompt: HookFields.prompt() })
    .transform((input) => ({ cwd: input.cwd, sessionId: input.session_id })),
);

const output = (event: 'SessionStart' | 'UserPromptSubmit') =>
  z.strictObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    ...(event === 'UserPromptSubmit' ? { decision: z.literal('block').optional(), reason: z.string().optional() } : {}),
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal(event), additionalContext: z.string().optional() }).optional(),
  });

const SessionStartOutput = lazySchema(() => output('SessionStart'));
const PromptSubmitOutput = lazySchema(() => output('UserPromptSubmit'));

export const CODEX: HookProtocol = {
  client: 'codex',
  title: 'Codex CLI',
  checked: '0.171.0',
  events: {
    'session-start': {
      agentEvent: 'SessionStart',
      sources: CODEX_SOURCES,
      input: () => SessionStartInput,
      output: () => SessionStartOutput,
      reply: (context) => hookSpecificReply('SessionStart', context),
    },
    'prompt-submit': {
      agentEvent: 'UserPromptSubmit',
      input: () => PromptSubmitInput,
      output: () => PromptSubmitOutput,
      reply: (context) => hookSpecificReply('UserPromptSubmit', context),
    },
  },
};
