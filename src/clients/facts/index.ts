/**
 * @module clients/facts
 * Every client's facts by client: what the docs' clients table lists and the tests pin, one by
 * one. Not loaded by the Worker: the profiles cite the facts by id.
 */
import type { ClientName } from '../../context/client.ts';
import type { Fact } from '../profile.ts';
import { CLAUDE_CODE_FACTS } from './claude-code.ts';
import { CODEX_FACTS } from './codex.ts';
import { COPILOT_FACTS } from './copilot.ts';
import { CURSOR_FACTS } from './cursor.ts';
import { GEMINI_CLI_FACTS } from './gemini-cli.ts';
import { NONE_FACTS } from './none.ts';

export type { Fact } from '../profile.ts';

export const FACTS: Readonly<Record<ClientName, readonly Fact[]>> = {
  none: NONE_FACTS,
  codex: CODEX_FACTS,
  'claude-code': CLAUDE_CODE_FACTS,
  'gemini-cli': GEMINI_CLI_FACTS,
  copilot: COPILOT_FACTS,
  cursor: CURSOR_FACTS,
};
