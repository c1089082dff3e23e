/**
 * The call context every tool gets (mcp/call-context): which era and version the request spoke
 * and who the client says it is, from the request's `_meta` (2026-07-28) or from what a legacy
 * `initialize` said (remembered by a server that outlives it, as a stdio process does; not by the
 * Worker's, which is made per request). The server is mcp/server with a backend that records.
 */
import { describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/mcp/call-context.ts';
import type { GroundworkBackend, ToolAnswer } from '../../src/mcp/backend.ts';
import type { JsonRpcMessage } from '../../src/mcp/json-rpc.ts';
import { createGroundworkServer } from '../../src/mcp/server.ts';

function recordingServer() {
  const calls: CallContext[] = [];
  const answer = async (_args: unknown, call: CallContext): Promise<ToolAnswer> => {
    calls.push(call);
    return { text: 'recorded' };
  };
  const none = () => Promise.resolve([]);
  const backend: GroundworkBackend = {
    today: () => '2026-12-06',
    assembleContext: answer,
    getTurn: answer,
    checkFreshness: answer,
    checkBefore: answer,
    readSkill: answer,
    remember: answer,
    recall: answer,
    retireKnowledge: answer,
    postFollowup: answer,
    listTurns: none,
    readTurn: () => Promise.resolve({ ok: false, message: 'none' }),
    readSource: () => Promise.resolve({ ok: false, message: 'none' }),
    taskTurns: none,
    taskSourcePaths: none,
    listSkills: () => Promise.resolve({ ok: true, skills: [], warnings: [], ttlMs: 0 }),
    getSkill: () => Promise.resolve({ ok: false, message: 'none' }),
    readSkillFile: () => Promise.resolve({ ok: false, message: 'none' }),
  };
  const server = createGroundworkServer(backend, { where: 'local', log: () => undefined });
  const request = (id: number, method: string, params: Record<string, unknown>): JsonRpcMessage => ({ kind: 'request', request: { jsonrpc: '2.0', id, method, params } });
  return { calls, send: (id: number, method: string, params: Record<string, unknown>) => server.answer(request(id, method, params)) };
}

const getTurn = { name: 'get_turn', arguments: { taskId: 'a'.repeat(64) } };

describe('the call context a tool gets', () => {
  it('under 2026-07-28: the version and the client each request names in _meta', async () => {
    const { calls, send } = recordingServer();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    await send(1, 'tools/call', { ...getTurn, _meta: { ...meta, 'io.modelcontextprotocol/clientInfo': { name: 'claude-code', version: '2.1.332', title: 'Claude Code' } } });
    await send(2, 'tools/call', { ...getTurn, _meta: meta });
    expect(calls).toEqual([
      { era: 'modern', protocolVersion: '2026-07-28', client: { name: 'claude-code', version: '2.1.332', title: 'Claude Code' } },
      // Nothing carries over from the request before: 2026-07-28 is stateless.
      { era: 'modern', protocolVersion: '2026-07-28' },
    ]);
  });

  it('under the legacy versions: what initialize said, for as long as that server lives', async () => {
    const { calls, send } = recordingServer();
    await send(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gemini-cli', version: '0.61.0' } });
    await send(2, 'tools/call', getTurn);
    expect(calls).toEqual([{ era: 'legacy', protocolVersion: '2025-06-18', client: { name: 'gemini-cli', version: '0.61.0' } }]);
    // A server made per request, as the Worker's is, has no initialize to remember.
    const fresh = recordingServer();
    await fresh.send(1, 'tools/call', getTurn);
    expect(fresh.calls).toEqual([{ era: 'legacy' }]);
  });

  it('takes no client from a clientInfo that is not one, and cuts an overlong name', async () => {
    const { calls, send } = recordingServer();
    const meta = (clientInfo: unknown) => ({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': clientInfo });
    await send(1, 'tools/call', { ...getTurn, _meta: meta({ name: 7, version: '1' }) });
    await send(2, 'tools/call', { ...getTurn, _meta: meta({ name: 'x'.repeat(500), version: '1' }) });
    expect(calls[0]).toEqual({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(calls[1]?.client?.name).toHaveLength(200);
  });
});
