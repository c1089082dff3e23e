/**
 * Who may use the remote MCP server, and what it tells everyone else: the REST API's bearer
 * tokens (401 with a `WWW-Authenticate: Bearer` challenge), the Origin check against DNS
 * rebinding (403), one tenant's tasks and knowledge out of another's reach, and the transport's
 * own refusals, each answered as the OpenAPI document says.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api } from '../support/api.ts';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';
import { callTool, connectMcp, MCP_URL, postMcp, type McpConnection } from '../support/mcp-client.ts';
import { checkedFetch } from '../support/api.ts';

const sample = () => `http://127.0.0.1:${inject('gitHttpPort')}/sample.git`;
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

let acme: McpConnection;
let globex: McpConnection;
let taskId: string;
let knowledgeId: string;
beforeAll(async () => {
  acme = await connectMcp({ tenant: 'acme' });
  globex = await connectMcp({ tenant: 'globex' });
  const assembled = await callTool(acme.client, 'assemble_context', { repo: sample(), request: 'Explain the build.' });
  taskId = String(assembled.structured['taskId']);
  const remembered = await callTool(acme.client, 'remember', { repo: sample(), statement: 'Only acme knows this.', source: { uri: 'https://acme.example/wiki' } });
  knowledgeId = String((remembered.structured['knowledge'] as { id: string }).id);
});
afterAll(async () => {
  await acme.close();
  await globex.close();
});

describe('authentication', () => {
  it('answers a request without a token 401 with a Bearer challenge, and runs nothing', async () => {
    const res = await checkedFetch(MCP_URL, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(listTools) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="groundwork"');
    expect(await res.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('answers a wrong token 401 with error="invalid_token", and the SDK client fails to connect', async () => {
    const res = await postMcp(initialize, { authorization: 'Bearer not-a-token-of-this-deployment' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="groundwork", error="invalid_token"');
    await expect(connectMcp({ token: 'not-a-token-of-this-deployment' })).rejects.toMatchObject({ code: 401, message: expect.stringContaining('the bearer token is not valid') });
  });
});

describe('the Origin check (DNS rebinding)', () => {
  it('refuses a browser request from another origin 403, before looking at the token', async () => {
    for (const authorization of [`Bearer ${TEST_API_TOKENS.acme}`, 'Bearer wrong']) {
      const res = await postMcp(initialize, { origin: 'http://evil.example', authorization });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('http://evil.example') } });
    }
    // A page on a name that rebinds to the service has that name as its origin, not the service's.
    expect((await postMcp(initialize, { origin: 'http://groundwork.test' })).status).toBe(403);
    expect((await postMcp(initialize, { origin: 'null' })).status).toBe(403);
  });

  it('serves the service\u2019s own origin without PUBLIC_URL when it is a loopback one (npm run dev), and no other', async () => {
    // PUBLIC_URL is unset in the tests: the origin the request reached is the service's own only on loopback.
    for (const url of ['http://localhost:8787/mcp', 'http://127.0.0.1:8787/mcp', 'http://[::1]:8787/mcp']) {
      const origin = new URL(url).origin;
      const res = await checkedFetch(url, { method: 'POST', headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, body: JSON.stringify(initialize) });
      expect(res.status, url).toBe(200);
    }
    const otherPort = await checkedFetch('http://localhost:8787/mcp', { method: 'POST', headers: { origin: 'http://localhost:9999', 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, body: JSON.stringify(initialize) });
    expect(otherPort.status).toBe(403);
  });

  it('serves clients that send no Origin (agents, CLIs)', async () => {
    const res = await postMcp(initialize);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'groundwork' } } });
  });
});

describe('tenancy', () => {
  it('gives another tenant no task: every task tool and resource answers as if the id did not exist', async () => {
    for (const [name, args] of [
      ['get_turn', { taskId }],
      ['check_freshness', { taskId }],
      ['read_skill', { taskId, name: 'review' }],
      ['post_followup', { taskId, from: '@mallory', text: 'Push to main.' }],
    ] as const) {
      const result = await callTool(globex.client, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text).toContain(`no task ${taskId}`);
    }
    await expect(globex.client.readResource({ uri: `groundwork://tasks/${taskId}/turns/0` })).rejects.toThrow(/no task/);
    await expect(globex.client.readResource({ uri: `groundwork://tasks/${taskId}/sources/AGENTS.md` })).rejects.toThrow(/no task/);
    expect((await globex.client.listResources()).resources.map((resource) => resource.uri)).not.toContain(`groundwork://tasks/${taskId}/turns/0`);
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}`)).json).mailbox.count).toBe(0);
  });

  it('lets no other tenant move a task’s focus: context_for_paths records nothing and begins no turn', async () => {
    const result = await callTool(globex.client, 'context_for_paths', { taskId, paths: ['src'] });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(new RegExp(`no task ${taskId}|may read it through a grant but not change it`));
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}`)).json).turns).toHaveLength(1);
  });

  it('keeps knowledge in its tenant’s scope: another tenant recalls none of it and cannot retire it', async () => {
    expect((await callTool(globex.client, 'recall', { repo: sample() })).text).not.toContain(knowledgeId);
    const retired = await callTool(globex.client, 'retire_knowledge', { id: knowledgeId, reason: 'mine now' });
    expect(retired.isError).toBe(true);
    expect(retired.text).toContain(`no knowledge ${knowledgeId}`);
    expect((await api('GET', `/knowledge/${knowledgeId}`)).json).toMatchObject({ status: 'active' });
  });
});

describe('the transport', () => {
  it('is stateless: GET and DELETE are 405 naming POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await checkedFetch(MCP_URL, { method, headers: { authorization: `Bearer ${TEST_API_TOKENS.acme}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('answers what is not JSON-RPC with a JSON-RPC error, never a 500: not JSON is -32700, JSON that is no request -32600', async () => {
    expect(await (await postMcp('{not json')).json()).toMatchObject({ error: { code: -32700 } });
    expect(await (await postMcp({ hello: 'world' })).json()).toMatchObject({ error: { code: -32600 } });
    // Its id, when it has one, pairs the answer.
    expect(await (await postMcp({ jsonrpc: '2.0', id: 12, method: 42 })).json()).toMatchObject({ id: 12, error: { code: -32600 } });
    expect((await postMcp(listTools, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await postMcp(listTools, { accept: 'application/json' })).status).toBe(406);
    expect((await postMcp(`[${'1,'.repeat(600_000)}1]`)).status).toBe(413);
    expect((await postMcp({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  });

  it('reads Accept and Content-Type as media types, never as substrings', async () => {
    const cases: Array<[Record<string, string>, number]> = [
      [{ accept: 'application/jsonx, text/event-stream' }, 406],
      [{ accept: 'application/json, text/event-streams' }, 406],
      [{ accept: 'text/application/json, text/event-stream' }, 406],
      [{ accept: 'application/json;q=0, text/event-stream' }, 406],
      [{ accept: 'Application/JSON;q=0.5, TEXT/EVENT-STREAM' }, 200],
      [{ 'content-type': 'application/jsonx' }, 415],
      [{ 'content-type': 'application/json-patch+json' }, 415],
      [{ 'content-type': 'application/json; charset=iso-8859-1' }, 415],
      [{ 'content-type': 'application/json; charset="UTF-8"' }, 200],
    ];
    for (const [headers, status] of cases) expect((await postMcp(listTools, headers)).status, JSON.stringify(headers)).toBe(status);
  });

  it('answers an unknown tool with a protocol error naming it and the tools there are, and an unknown method as method-not-found', async () => {
    // 2025-11-25 Tools, Error Handling: an unknown tool is a JSON-RPC error, not a tool result.
    await expect(acme.client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/delete_everything.*assemble_context/) });
    const res = await postMcp({ jsonrpc: '2.0', id: 9, method: 'sampling/createMessage', params: {} });
    expect(await res.json()).toMatchObject({ id: 9, error: { code: -32601 } });
  });
});
