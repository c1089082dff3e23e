/**
 * @module cli/hooks/copilot
 * The hook protocol of GitHub Copilot CLI and the Copilot cloud agent (the coding agent), as
 * docs.github.com's hooks reference documents it (github/docs@05da5bc,
 * content/copilot/reference/hooks-reference.md; Copilot CLI 1.0.102 was current):
 * - Hooks live in `.github/hooks/*.json` (the cloud agent reads only these, from the cloned
 *   repository) and `~/.copilot/hooks/*.json`, as `{ "version": 1, "hooks": { "<event>": [...] } }`
 *   with `{ "type": "command", "bash": …, "timeoutSec": … }` entries.
 * - `sessionStart` ("A new or resumed session begins") is the one event whose output can add
 *   context: "Optional — can inject `additionalContext` into the session". Its camelCase input is
 *   `sessionId`, `timestamp` (ms), `cwd`, `source` (startup, resume, new), `initialPrompt`. There is
 *   no compact source.
 * - `userPromptSubmitted` cannot: a command hook's output is dropped ("`modifiedPrompt` is only
 *   honored by SDK programmatic hooks"), so groundwork offers no prompt hook here.
 * - The output is JSON with a top-level `additionalContext` (the shape of every Copilot hook output
 *   that adds context; github/copilot-cli#3589 shows sessionStart hooks printing exactly that on
 *   1.0.56). Exit 2 shows stderr to the user as a warning and the session goes on.
 */
import * as z from 'zod';
import { once } from '../../lib/once.ts';
import { jsonOutput } from '../json-output.ts';
import type { HookInputSpec } from './hook-input.ts';
import { HookFields, type HookProtocol } from './protocol.ts';

export const COPILOT_SOURCES = ['startup', 'resume', 'new'] as const;

const SessionStartInput: HookInputSpec = {
  fields: {
    sessionId: HookFields.sessionId,
    timestamp: { type: 'number', optional: true },
    cwd: HookFields.cwd,
    source: HookFields.source,
    initialPrompt: { type: 'text', optional: true },
  },
  facts: { cwd: 'cwd', sessionId: 'sessionId', source: 'source' },
};

const SessionStartOutput = once(() => z.strictObject({ additionalContext: z.string().optional() }));

export const COPILOT: HookProtocol = {
  client: 'copilot',
  title: 'GitHub Copilot CLI and cloud agent',
  checked: 'Copilot CLI 1.0.102 (docs.github.com hooks reference, github/docs@05da5bc)',
  events: {
    'session-start': {
      agentEvent: 'sessionStart',
      sources: COPILOT_SOURCES,
      input: SessionStartInput,
      output: SessionStartOutput,
      reply: (context) => ({ stdout: jsonOutput({ additionalContext: context }), stderr: '', exit: 0 }),
    },
  },
};
