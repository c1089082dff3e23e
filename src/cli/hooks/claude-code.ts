/**
 * @module cli/hooks/claude-code
 * Claude Code's hook protocol, as Claude Code 2.1.332 validates it (the zod schemas in its own
 * bundle, `claude.exe` of @anthropic-ai/claude-code@2.1.332) and code.claude.com/docs/en/hooks
 * describes it:
 * - `SessionStart` input: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `source` (one
 *   of startup, resume, clear, compact, fork), and optional fields groundwork does not read. It
 *   fires again after `/compact` and auto-compaction with `source: "compact"`, which is how the
 *   rules come back into a compacted session.
 * - `UserPromptSubmit` input: the same base fields and `prompt`.
 * - Output (exit 0, JSON on stdout): `hookSpecificOutput: { hookEventName, additionalContext }`; the
 *   other top-level fields are `continue`, `suppressOutput`, `stopReason`, `decision`, `reason`,
 *   `systemMessage` (shown to the user) and `terminalSequence`.
 * A context over 10,000 characters is kept in a file and the model sees a 2 KB preview and its path
 * (2.1.332: the threshold `QDe = 1e4` of its hook-output persistence).
 */
import * as z from 'zod';
import { once } from '../../lib/once.ts';
import { hookSpecificReply, HookFields, optionalText, sessionInputs, type HookProtocol } from './protocol.ts';

/** The documented `SessionStart` sources (its matcher values). */
export const CLAUDE_CODE_SOURCES = ['startup', 'resume', 'clear', 'compact', 'fork'] as const;

const base = {
  session_id: HookFields.sessionId,
  transcript_path: optionalText(4_096),
  cwd: HookFields.cwd,
  permission_mode: optionalText(64),
};

const INPUTS = sessionInputs(base, 'UserPromptSubmit');

/** The output Claude Code 2.1.332 accepts, for the events groundwork answers (for the tests). */
const Output = once(() =>
  z.strictObject({
    continue: z.boolean().optional(),
    suppressOutput: z.boolean().optional(),
    stopReason: z.string().optional(),
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    systemMessage: z.string().optional(),
    terminalSequence: z.string().optional(),
    hookSpecificOutput: z
      .discriminatedUnion('hookEventName', [
        z.strictObject({
          hookEventName: z.literal('SessionStart'),
          additionalContext: z.string().optional(),
          initialUserMessage: z.string().optional(),
          sessionTitle: z.string().optional(),
          watchPaths: z.array(z.string()).optional(),
          reloadSkills: z.boolean().optional(),
        }),
        z.strictObject({ hookEventName: z.literal('UserPromptSubmit'), additionalContext: z.string().optional(), sessionTitle: z.string().optional(), suppressOriginalPrompt: z.boolean().optional() }),
      ])
      .optional(),
  }),
);

export const CLAUDE_CODE: HookProtocol = {
  client: 'claude-code',
  title: 'Claude Code',
  checked: '2.1.332',
  events: {
    'session-start': {
      agentEvent: 'SessionStart',
      sources: CLAUDE_CODE_SOURCES,
      input: INPUTS.start,
      output: Output,
      reply: (context) => hookSpecificReply('SessionStart', context),
    },
    'prompt-submit': {
      agentEvent: 'UserPromptSubmit',
      input: INPUTS.prompt,
      output: Output,
      reply: (context) => hookSpecificReply('UserPromptSubmit', context),
    },
  },
};
