/**
 * @module cli/hooks/protocols
 * Every agent hook protocol groundwork speaks, by the client name `--client` takes. Cursor is not
 * here: its hook documentation (cursor.com/docs/hooks) could not be read first-hand, and a
 * third-party report says its validator rejects `sessionStart`; it gets its context through MCP.
 */
import { CLAUDE_CODE } from './claude-code.ts';
import { CODEX } from './codex.ts';
import { COPILOT } from './copilot.ts';
import { GEMINI_CLI } from './gemini-cli.ts';
import type { HookClient } from './notice.ts';
import type { HookProtocol } from './protocol.ts';

export const HOOK_PROTOCOLS: Readonly<Record<HookClient, HookProtocol>> = {
  'claude-code': CLAUDE_CODE,
  codex: CODEX,
  'gemini-cli': GEMINI_CLI,
  copilot: COPILOT,
};
