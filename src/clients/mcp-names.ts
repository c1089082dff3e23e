/**
 * @module clients/mcp-names
 * The client an MCP `initialize` (or a request's metadata) names in `clientInfo`, when it is a
 * known one (the facts `<client>.mcp`): apart from the profiles, so the MCP route loads only this.
 */
import type { ClientName, ClientRef } from '../context/client.ts';

const MCP_CLIENTS: Readonly<Record<string, { name: ClientName; variant?: string; versioned: boolean }>> = {
  'codex-mcp-client': { name: 'codex', versioned: true },
  'claude-code': { name: 'claude-code', versioned: true },
  'gemini-cli-mcp-client': { name: 'gemini-cli', versioned: true },
  // VS Code sends its own version, and Cursor always 1.0.0: neither is the client's version.
  'Visual Studio Code': { name: 'copilot', variant: 'vscode', versioned: false },
  'Visual Studio Code - Insiders': { name: 'copilot', variant: 'vscode', versioned: false },
  'github-copilot-developer': { name: 'copilot', variant: 'cli', versioned: false },
  'cursor-vscode': { name: 'cursor', versioned: false },
};

/**
 * @example
 * clientFromMcp({ name: 'claude-code', version: '2.1.332' }) // { name: 'claude-code', version: '2.1.332' }
 */
export function clientFromMcp(info: { name?: unknown; version?: unknown } | undefined): ClientRef | undefined {
  if (!info || typeof info.name !== 'string' || !Object.hasOwn(MCP_CLIENTS, info.name)) return undefined;
  const known = MCP_CLIENTS[info.name];
  if (!known) return undefined;
  const version = known.versioned && typeof info.version === 'string' && /^[0-9]{1,9}(?:\.[0-9]{1,9}){1,3}$/.test(info.version) ? info.version : undefined;
  return { name: known.name, ...(known.variant === undefined ? {} : { variant: known.variant }), ...(version === undefined ? {} : { version }) };
}
