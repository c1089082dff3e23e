/**
 * @module clients
 * Every client profile by name. The rules provider
 * asks `PROFILES` for each client's loads; the CLI's `rules`, the check run and the hook read the
 * same answers through it.
 */
import { CLIENT_NAMES, type ClientName } from '../context/client.ts';
import { CLAUDE_CODE } from './claude-code.ts';
import { CODEX } from './codex.ts';
import { COPILOT } from './copilot.ts';
import { CURSOR } from './cursor.ts';
import { GEMINI_CLI } from './gemini-cli.ts';
import { NONE } from './none.ts';
import type { ClientProfile } from './profile.ts';

export type { ClientProfile } from './profile.ts';

export const PROFILES: Readonly<Record<ClientName, ClientProfile>> = {
  none: NONE,
  codex: CODEX,
  'claude-code': CLAUDE_CODE,
  'gemini-cli': GEMINI_CLI,
  copilot: COPILOT,
  cursor: CURSOR,
};

/** Instruction file names some client reads in a directory, so the chains are searched for them too. */
export const CLIENT_DIRECTORY_NAMES: readonly string[] = [...new Set(CLIENT_NAMES.flatMap((name) => PROFILES[name].directoryNames))];

