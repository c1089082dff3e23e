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
import { once } from '../../lib/once.ts';
import { hookSpecificReply, HookFields, optionalText, sessionInputs, type HookProtocol } from './protocol.ts';

export const CODEX_SOURCES = ['startup', 'resume', 'clear', 'compact', 'fork'] as const;

const base = {
  session_id: HookFields.sessionId,
  transcript_path: optionalText(4_096, true),
  cwd: HookFields.cwd,
  model: optionalText(256),
  permission_mode: optionalText(64),
};

const INPUTS = sessionInputs(base, 'UserPromptSubmit');

const output = (event: 'SessionStart' | 'UserPromptSubmit') =>
  z.strictObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    ...(event === 'UserPromptSubmit' ? { decision: z.literal('block').optional(), reason: z.string().optional() } : {}),
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal(event), additionalContext: z.string().optional() }).optional(),
  });

const SessionStartOutput = once(() => output('SessionStart'));
const PromptSubmitOutput = once(() => output('UserPromptSubmit'));

export const CODEX: HookProtocol = {
  client: 'codex',
  title: 'Codex CLI',
  checked: '0.171.0',
  events: {
    'session-start': {
      agentEvent: 'SessionStart',
      sources: CODEX_SOURCES,
      input: INPUTS.start,
      output: SessionStartOutput,
      reply: (context) => hookSpecificReply('SessionStart', context),
    },
    'prompt-submit': {
      agentEvent: 'UserPromptSubmit',
      input: INPUTS.prompt,
      output: PromptSubmitOutput,
      reply: (context) => hookSpecificReply('UserPromptSubmit', context),
    },
  },
};
