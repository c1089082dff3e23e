/**
 * @module test/support/mcp-modern-client
 * The official SDK's 2.x client (`@modelcontextprotocol/client`, which speaks 2026-07-28) against
 * the real Worker entry over Streamable HTTP, pinned to 2026-07-28: no `initialize`, every request
 * carrying its `_meta` and the Streamable HTTP headers the client mirrors. Every response goes
 * through the OpenAPI contract check, as in mcp-client (the 1.x client, legacy era). It validates
 * tool output with @cfworker/json-schema: workerd refuses Ajv's code generation.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { TEST_API_TOKENS } from './api-tokens.ts';
import { checkedFetch, type Tenant } from './api.ts';
import { MCP_URL } from './mcp-client.ts';

export interface ModernConnection {
  client: Client;
  /** Each request the client made: its method header and the status it got. */
  seen: Array<{ method: string | null; name: string | null; version: string | null; status: number }>;
  close(): Promise<void>;
}

export async function connectModern(options: { tenant?: Tenant } = {}): Promise<ModernConnection> {
  const seen: ModernConnection['seen'] = [];
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    requestInit: { headers: { authorization: `Bearer ${TEST_API_TOKENS[options.tenant ?? 'acme']}` } },
    fetch: async (url, init) => {
      const response = await checkedFetch(String(url), init);
      const headers = new Headers(init?.headers);
      seen.push({ method: headers.get('mcp-method'), name: headers.get('mcp-name'), version: headers.get('mcp-protocol-version'), status: response.status });
      return response;
    },
  });
  const client = new Client({ name: 'groundwork-modern-test', version: '2.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator(), versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return { client, seen, close: () => client.close() };
}
