/**
 * The MCP protocol's legacy (initialize-based) era as Groundwork's own server speaks it
 * (mcp/json-rpc, mcp/server, mcp/http-handler), in raw JSON-RPC over POST /mcp: version
 * negotiation, batches, the protocol-version header, bad params. The 2026-07-28 era is in
 * protocol-modern; the SDK clients' view of the same server in remote-tools, remote-modern and
 * remote-security; every answer here is also checked against the OpenAPI document.
 */
import { describe, expect, it } from 'vitest';
import { postMcp } from '../support/mcp-client.ts';

const initialize = (protocolVersion: string) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const answer = async (body: unknown, headers?: Record<string, string>) => {
  const res = await postMcp(body, headers);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> & { error?: { code: number; message: string }; result?: Record<string, unknown> } };
};

describe('the MCP protocol over POST /mcp', () => {
  it('answers initialize with the client’s protocol version when it speaks it, else its newest, and issues no session', async () => {
    const res = await postMcp(initialize('2025-06-18'));
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.json()).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'groundwork' }, capabilities: { tools: {}, resources: {} } } });
    expect((await answer(initialize('1999-01-01'))).json).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  it('answers a batch with one answer per request, matched by id, and nothing for its notifications', async () => {
    const { status, json } = await answer([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x' } },
      { jsonrpc: '2.0', id: 7, method: 'resources/templates/list' },
    ]);
    expect(status).toBe(200);
    expect(json).toEqual([
      { jsonrpc: '2.0', id: 'a', result: {} },
      { jsonrpc: '2.0', id: 7, result: { resourceTemplates: [expect.objectContaining({ name: 'turn' }), expect.objectContaining({ name: 'source' })] } },
    ]);
  });

  it('refuses a batch that is empty, too long, holds a non-message or bundles initialize', async () => {
    expect(await answer([])).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
    expect(await answer(Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })))).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
    // Valid JSON that is not a message is an invalid request (JSON-RPC's -32600), not a parse error; no id can be read.
    const notAMessage = await answer([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '1.0', id: 2, method: 'ping' }]);
    expect(notAMessage).toMatchObject({ status: 400, json: { error: { code: -32600, message: expect.stringContaining('message 1') } } });
    expect(notAMessage.json).not.toHaveProperty('id');
    // 2025-06-18 and later send one message per POST.
    expect(await answer([{ jsonrpc: '2.0', id: 1, method: 'ping' }], { 'mcp-protocol-version': '2025-11-25' })).toMatchObject({ status: 400, json: { error: { code: -32600, message: expect.stringContaining('one JSON-RPC message') } } });
    expect(await answer([initialize('2025-11-25'), { jsonrpc: '2.0', id: 2, method: 'ping' }])).toMatchObject({ status: 400, json: { error: { code: -32600, message: expect.stringContaining('initialize') } } });
  });

  it('refuses a protocol version it does not speak, named in the MCP-Protocol-Version header, listing those it does', async () => {
    const refused = await answer({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2099-01-01' });
    expect(refused).toMatchObject({ status: 400, json: { id: 1, error: { code: -32022, message: expect.stringContaining('2099-01-01'), data: { requested: '2099-01-01', supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] } } } });
    expect(await answer({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-03-26' })).toMatchObject({ status: 200, json: { result: {} } });
  });

  it('answers bad params as invalid-params naming the field, and a resource outside its templates as not found', async () => {
    expect((await answer({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } })).json).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringContaining('params.name') } });
    // Not found is -32002 in this era (2025-11-25 Resources, Error Handling).
    expect((await answer({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'file:///etc/passwd' } })).json).toMatchObject({ id: 4, error: { code: -32002, message: expect.stringContaining('groundwork://tasks/{taskId}/turns/{turn}') } });
    expect((await answer({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: `groundwork://tasks/${'0'.repeat(64)}/turns/99999` } })).json).toMatchObject({ id: 5, error: { code: -32002, message: expect.stringContaining('turn') } });
    // A method name that is an Object.prototype member is no method.
    expect((await answer({ jsonrpc: '2.0', id: 6, method: 'constructor' })).json).toMatchObject({ id: 6, error: { code: -32601 } });
  });

  it('validates tool arguments on the input side of the schema and lists that side as JSON Schema', async () => {
    const { json } = await answer({ jsonrpc: '2.0', id: 8, method: 'tools/list' });
    const tools = (json.result?.['tools'] ?? []) as Array<{ name: string; inputSchema: { $schema?: string; properties?: Record<string, unknown>; required?: string[] } }>;
    const getTurn = tools.find((tool) => tool.name === 'get_turn');
    expect(getTurn?.inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    // `turn` defaults to 0: optional on the input side.
    expect(getTurn?.inputSchema.required).toEqual(['taskId']);
    const bad = await answer({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'get_turn', arguments: { taskId: 'nope', turn: -1 } } });
    expect(bad.json).toMatchObject({ id: 9, result: { isError: true, content: [{ type: 'text', text: expect.stringMatching(/taskId: .*; turn: /) }] } });
  });
});
