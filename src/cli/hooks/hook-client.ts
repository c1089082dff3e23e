/**
 * @module cli/hooks/hook-client
 * `--client` of `groundwork hook`: the client name resolved as every other entry point resolves it
 * (context/client `parseClient`), then held to the agents whose hook protocol groundwork speaks.
 * The client is also whose loader the context is the complement for: the hook gives only what its
 * agent will not load itself. Copilot's hook protocol is Copilot CLI's and the cloud agent's (one
 * runtime, cli/hooks/copilot), so `copilot` in a hook is `copilot:cli`. Nothing here but
 * context/client and the notice module: the `groundwork` launcher, which runs on old Node with
 * built-ins only, reads the same flag for its notice.
 */
import { CLIENT_TITLES, parseClient, type ClientRef } from '../../context/client.ts';
import { HOOK_CLIENTS, isHookClient, oneLine, type HookClient } from './notice.ts';

export type HookClientRef = ClientRef & { name: HookClient };

export type ParsedHookClient = { ok: true; client: HookClientRef } | { ok: false; error: string };

/** When no `--client` is given: the hook groundwork answered first. */
export const DEFAULT_HOOK_CLIENT: HookClientRef = { name: 'claude-code' };

/**
 * @example
 * parseHookClient('copilot')  // { ok: true, client: { name: 'copilot', variant: 'cli' } }
 * parseHookClient('cursor')   // { ok: false, error: '--client: Cursor has no hook … it gets the context through MCP' }
 */
export function parseHookClient(value: string): ParsedHookClient {
  const parsed = parseClient(value);
  if (!parsed.ok) return { ok: false, error: `--client: ${oneLine(parsed.reason)}` };
  const { client } = parsed;
  const { name } = client;
  if (!isHookClient(name)) return { ok: false, error: `--client: ${name === 'none' ? 'none names no agent' : `${CLIENT_TITLES[name]} has no hook groundwork speaks`} (hooks: ${HOOK_CLIENTS.join(', ')}); it gets the context through MCP` };
  if (name !== 'copilot') return { ok: true, client: { ...client, name } };
  if (client.variant === 'vscode') return { ok: false, error: "--client: the copilot hook is Copilot CLI's and the cloud agent's (copilot or copilot:cli); VS Code's agent mode gets the context through MCP" };
  return { ok: true, client: { ...client, name, variant: 'cli' } };
}

/** The agent `--client` names in a hook's argv, for a notice in its way; Claude Code's when absent or not a hook client. */
export function noticeClient(argv: readonly string[]): HookClient {
  let value: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === '--client') value = argv[i + 1];
    else if (arg.startsWith('--client=')) value = arg.slice('--client='.length);
  });
  if (value === undefined) return DEFAULT_HOOK_CLIENT.name;
  const parsed = parseHookClient(value);
  return parsed.ok ? parsed.client.name : DEFAULT_HOOK_CLIENT.name;
}
