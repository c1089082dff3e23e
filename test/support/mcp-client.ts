/**
 * @module test/support/mcp-client
 * The official MCP SDK client against the real Worker entry over Streamable HTTP. Every HTTP
 * response it gets goes through the OpenAPI contract check (`checkedFetch`), as every other
 * workerd test response does. The client validates with @cfworker/json-schema: workerd refuses
 * the code generation of the SDK's default (Ajv).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker-provider.js';
import { TEST_API_TOKENS } from './api-tokens.ts';
import { checkedFetch, type Tenant } from './api.ts';

export const MCP_URL = 'http://groundwork.test/mcp';

export interface McpConnection {
  client: Client;
  /** What each HTTP request the client made answered, in order: `POST 200`, `GET 405`, … */
  seen: string[];
  close(): Promise<void>;
}

export async function connectMcp(options: { tenant?: Tenant; token?: string; headers?: Record<string, string> } = {}): Promise<McpConnection> {
  const token = options.token ?? TEST_API_TOKENS[options.tenant ?? 'acme'];
  const seen: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...options.headers } },
    fetch: async (url, init) => {
      const response = await checkedFetch(String(url), init);
      seen.push(`${init?.method ?? 'GET'} ${response.status}`);
      return response;
    },
  });
  const client = new Client({ name: 'groundwork-test', version: '1.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(transport);
  return { client, seen, close: () => client.close() };
}

/** The text of a tool result's one text block. */
export function resultText(result: CallToolResult): string {
  const [first] = result.content;
  if (!first || first.type !== 'text') throw new Error(`expected one text block, got ${JSON.stringify(result.content).slice(0, 200)}`);
  return first.text;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string; structured: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { ...result, text: resultText(result), structured: (result.structuredContent ?? {}) as Record<string, unknown> };
}

/** A raw JSON-RPC POST to /mcp, for what the SDK client would never send. */
export async function postMcp(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return checkedFetch(MCP_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TEST_API_TOKENS.acme}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
