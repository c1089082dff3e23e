/**
 * The 2026-07-28 protocol on POST /mcp in raw JSON-RPC, beside the legacy era (protocol.test):
 * no handshake, `server/discover`, each request's `_meta` (version, capabilities, client), the
 * Streamable HTTP headers checked against the body, the version's errors and their HTTP statuses,
 * results typed and naming the server, cache hints on lists and reads, deterministic tools/list.
 * The SDK 2.x client's view of the same server is in remote-modern; every answer here is checked
 * against the OpenAPI document.
 */
import { describe, expect, it } from 'vitest';
import { postMcp } from '../support/mcp-client.ts';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Answer = { status: number; json: Record<string, unknown> & { id?: unknown; error?: { code: number; message: string; data?: unknown }; result?: Record<string, unknown> } };

/** A conforming 2026-07-28 request: the headers mirror the body unless `headers` says otherwise. */
async function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}, id: number | string = 1): Promise<Answer> {
  const name = typeof params['name'] === 'string' ? params['name'] : typeof params['uri'] === 'string' ? params['uri'] : undefined;
  const res = await postMcp({ jsonrpc: '2.0', id, method, params: { _meta: META, ...params } }, { 'mcp-protocol-version': VERSION, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }), ...headers });
  return { status: res.status, json: (await res.json()) as Answer['json'] };
}

describe('server/discover', () => {
  it('says which versions, capabilities and extensions it serves, names itself in _meta, and may be cached by anyone', async () => {
    const { status, json } = await modern('server/discover');
    expect(status).toBe(200);
    expect(json.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { tools: {}, resources: {}, completions: {}, extensions: { 'io.modelcontextprotocol/skills': {} } },
      instructions: expect.stringContaining('assemble_context'),
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'groundwork', version: expect.any(String), icons: [expect.objectContaining({ src: expect.stringMatching(/^data:image\/svg\+xml;base64,/) })] } },
      ttlMs: expect.any(Number),
      cacheScope: 'public',
    });
    // Nothing is pushed, so nothing is subscribable.
    expect(json.result?.['capabilities']).not.toHaveProperty('tools.listChanged');
  });
});

describe('each request\u2019s _meta', () => {
  it('refuses a request missing its version or capabilities with -32602 and HTTP 400, and serves one without clientInfo', async () => {
    const bare = await postMcp({ jsonrpc: '2.0', id: 5, method: 'server/discover', params: {} }, { 'mcp-protocol-version': VERSION, 'mcp-method': 'server/discover' });
    expect({ status: bare.status, json: await bare.json() }).toMatchObject({ status: 400, json: { id: 5, error: { code: -32602, message: expect.stringContaining('protocolVersion') } } });
    const { 'io.modelcontextprotocol/clientCapabilities': _caps, ...noCapabilities } = META;
    const res = await postMcp({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: noCapabilities } }, { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/list' });
    expect({ status: res.status, json: await res.json() }).toMatchObject({ status: 400, json: { id: 6, error: { code: -32602, message: expect.stringContaining('clientCapabilities') } } });
    const { 'io.modelcontextprotocol/clientInfo': _info, ...anonymous } = META;
    const served = await postMcp({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: anonymous } }, { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/list' });
    expect(served.status).toBe(200);
  });

  it('answers a version it does not speak with -32022 listing those it does, HTTP 400', async () => {
    const res = await postMcp(
      { jsonrpc: '2.0', id: 8, method: 'server/discover', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'server/discover' },
    );
    expect({ status: res.status, json: await res.json() }).toMatchObject({ status: 400, json: { id: 8, error: { code: -32022, data: { requested: '2099-01-01', supported: expect.arrayContaining(['2026-07-28', '2025-11-25']) } } } });
  });
});

describe('the Streamable HTTP headers', () => {
  it('refuses headers missing or not matching the body with -32020 HeaderMismatch and HTTP 400', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['version header differs from _meta', { 'mcp-protocol-version': '2025-11-25' }],
      ['no Mcp-Method', { 'mcp-method': '' }],
      ['Mcp-Method differs', { 'mcp-method': 'tools/list' }],
      ['Mcp-Name differs', { 'mcp-name': 'recall' }],
      ['Mcp-Name is broken base64', { 'mcp-name': '=?base64?%%%?=' }],
    ];
    for (const [what, headers] of cases) {
      const answer = await modern('tools/call', { name: 'get_turn', arguments: { taskId: 'f'.repeat(64) } }, headers, 9);
      expect(answer, what).toMatchObject({ status: 400, json: { id: 9, error: { code: -32020 } } });
    }
    // A body claiming 2026-07-28 with no version header at all.
    const res = await postMcp({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: META } });
    expect({ status: res.status, json: await res.json() }).toMatchObject({ status: 400, json: { id: 10, error: { code: -32020, message: expect.stringContaining('MCP-Protocol-Version') } } });
  });

  it('takes Mcp-Name in its base64 form, and a tools/call without Mcp-Name is refused', async () => {
    const encoded = `=?base64?${btoa('get_turn')}?=`;
    const ok = await modern('tools/call', { name: 'get_turn', arguments: { taskId: 'nope' } }, { 'mcp-name': encoded });
    expect(ok).toMatchObject({ status: 200, json: { result: { isError: true, resultType: 'complete' } } });
    const res = await postMcp({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { _meta: META, name: 'get_turn', arguments: {} } }, { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call' });
    expect({ status: res.status, json: await res.json() }).toMatchObject({ status: 400, json: { id: 11, error: { code: -32020, message: expect.stringContaining('Mcp-Name') } } });
  });

  it('answers the legacy methods and unknown ones 404 with -32601, and refuses a batch', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'nothing/here']) {
      expect(await modern(method, {}, {}, 12), method).toMatchObject({ status: 404, json: { id: 12, error: { code: -32601 } } });
    }
    const batch = await postMcp([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }], { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/list' });
    expect({ status: batch.status, json: await batch.json() }).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
  });

  it('accepts a notification with 202', async () => {
    const res = await postMcp({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, { 'mcp-protocol-version': VERSION });
    expect(res.status).toBe(202);
  });
});

describe('lists and reads under 2026-07-28', () => {
  it('lists the tools in the same order every time, each with a title, icon and output schema, and cacheable by anyone', async () => {
    const first = await modern('tools/list');
    const again = await modern('tools/list');
    const names = (answer: Answer) => ((answer.json.result?.['tools'] ?? []) as Array<{ name: string }>).map((tool) => tool.name);
    expect(names(first)).toEqual(['assemble_context', 'get_turn', 'context_for_paths', 'check_freshness', 'check_before', 'read_skill', 'remember', 'recall', 'retire_knowledge', 'post_followup']);
    expect(names(again)).toEqual(names(first));
    expect(first.json.result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: 'public' });
    for (const tool of first.json.result?.['tools'] as Array<Record<string, unknown>>) {
      expect(tool, String(tool['name'])).toMatchObject({ title: expect.any(String), icons: [expect.objectContaining({ mimeType: 'image/svg+xml' })], outputSchema: expect.objectContaining({ type: 'object' }) });
    }
  });

  it('refuses a cursor it never issued with -32602, and a resource that is not there with -32602 (not 2025-11-25\u2019s -32002)', async () => {
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'skills/list']) {
      expect(await modern(method, { cursor: 'not-one-of-mine' }), method).toMatchObject({ status: 200, json: { error: { code: -32602, message: expect.stringContaining('cursor') } } });
    }
    const missing = await modern('resources/read', { uri: `groundwork://tasks/${'0'.repeat(64)}/turns/0` });
    expect(missing.json).toMatchObject({ error: { code: -32602 } });
    expect((await modern('skills/get', { uri: `skill://${'0'.repeat(64)}/.agents/skills/x/SKILL.md` })).json).toMatchObject({ error: { code: -32602, message: expect.stringContaining('No skill is served') } });
  });

  it('answers an unknown tool with -32602, lists resources privately, and completes nothing it has no task for', async () => {
    expect((await modern('tools/call', { name: 'delete_everything', arguments: {} })).json).toMatchObject({ error: { code: -32602, message: expect.stringContaining('delete_everything') } });
    expect((await modern('resources/list')).json.result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 0 });
    const completion = await modern('completion/complete', { ref: { type: 'ref/resource', uri: 'groundwork://tasks/{taskId}/turns/{turn}' }, argument: { name: 'turn', value: '' } });
    expect(completion.json.result).toMatchObject({ completion: { values: [], total: 0, hasMore: false } });
    expect((await modern('completion/complete', { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } })).json).toMatchObject({ error: { code: -32602 } });
  });
});
