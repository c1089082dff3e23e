/**
 * @module mcp/client-info
 * `assemble_context` without a `client` argument takes the client the MCP host named itself as:
 * `clientInfo` of `initialize` (or of a request's metadata, where a protocol version carries it
 * there), when it names a known client (src/clients `clientFromMcp`). An unknown name leaves the
 * default, `none`. A host names it about itself, so it decides nothing but which rules are given.
 */
import { clientLabel } from '../context/client.ts';
import { clientFromMcp } from '../clients/mcp-names.ts';

export interface McpClientInfo {
  name?: unknown;
  version?: unknown;
}

/** The tool's arguments with `client` from `info` when they name none. */
export function withMcpClient(args: Record<string, unknown>, info: McpClientInfo | undefined): Record<string, unknown> {
  if (args.client !== undefined) return args;
  const client = clientFromMcp(info);
  return client ? { ...args, client: clientLabel(client) } : args;
}
