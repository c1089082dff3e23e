/**
 * @module clients
 * Every client profile by name, and the client an MCP `clientInfo` names. The rules provider
 * asks `PROFILES` for each client's loads; the CLI's `rules`, the check run and the hook read the
 * same answers through it.
 */
import { CLIENT_NAMES, type ClientName, type ClientRef } from '../context/client.ts';
import { CLAUDE_CODE } from './claude-code.ts';
import { CODEX } from './codex.ts';
import { COPILOT } from './copilot.ts';
import { CURSOR } from './cursor.ts';
import { GEMINI_CLI } from './gemini-cli.ts';
import { NONE } from './none.ts';
import type { ClientProfile } from './profile.ts';

export type { ClientProfile, Fact } from './profile.ts';

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

/** The MCP hosts whose `clientInfo.name` names one Copilot host. */
const MCP_VARIANTS: Readonly<Record<string, string>> = { 'Visual Studio Code': 'vscode', 'Visual Studio Code - Insiders': 'vscode', 'github-copilot-developer': 'cli' };

/**
 * The client an MCP `initialize` (or a request's `_meta`) names in `clientInfo`, when it is one
 * of the known ones; its version only where the client sends its own (Cursor always sends 1.0.0).
 *
 * @example
 * clientFromMcp({ name: 'claude-code', version: '2.1.332' }) // { name: 'claude-code', version: '2.1.332' }
 */
export function clientFromMcp(info: { name?: unknown; version?: unknown } | undefined): ClientRef | undefined {
  if (!info || typeof info.name !== 'string') return undefined;
  const name = CLIENT_NAMES.find((candidate) => PROFILES[candidate].mcpNames.includes(info.name as string));
  if (name === undefined) return undefined;
  const variant = MCP_VARIANTS[info.name];
  const version = typeof info.version === 'string' && name !== 'cursor' && name !== 'copilot' && /^[0-9]{1,9}(?:\.[0-9]{1,9}){1,3}$/.test(info.version) ? info.version : undefined;
  return { name, ...(variant === undefined ? {} : { variant }), ...(version === undefined ? {} : { version }) };
}
