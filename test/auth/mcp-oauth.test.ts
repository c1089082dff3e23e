/**
 * The remote MCP server as an OAuth 2.1 protected resource, driven end to end by the official MCP
 * SDK client's OAuth support against the real Worker and the GitHub API test server: the 401 that
 * names the resource metadata, discovery, dynamic registration, PKCE, the browser step (consent,
 * GitHub, the callback), the token, tools/list and a tool call as the person, and a refresh.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker-provider.js';
import { describe, expect, it } from 'vitest';
import { createGitHubUser, githubFixture } from '../support/github-api-client.ts';
import { OAUTH_ORIGIN, route } from '../support/oauth-browser.ts';
import { authorizeInBrowser, MemoryOAuthClient } from '../support/oauth-client.ts';

const MCP = `${OAUTH_ORIGIN}/mcp`;

function connect(client: MemoryOAuthClient) {
  const seen: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(MCP), {
    authProvider: client,
    fetch: async (url, init) => {
      const response = await route(String(url), init);
      seen.push(`${init?.method ?? 'GET'} ${new URL(String(url)).pathname} ${response.status}`);
      return response;
    },
  });
  const mcp = new Client({ name: 'oauth-test', version: '1.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  return { transport, mcp, seen };
}

describe('the MCP server with OAuth, as the official SDK client signs in', () => {
  it('answers an unauthenticated call with a 401 naming its resource metadata, which names this issuer and the /mcp resource', async () => {
    const res = await route(MCP, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(`resource_metadata="${OAUTH_ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    const metadata = (await (await route(`${OAUTH_ORIGIN}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: MCP, authorization_servers: [OAUTH_ORIGIN], bearer_methods_supported: ['header'] });
    const server = (await (await route(`${OAUTH_ORIGIN}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      issuer: OAUTH_ORIGIN,
      authorization_endpoint: `${OAUTH_ORIGIN}/authorize`,
      token_endpoint: `${OAUTH_ORIGIN}/oauth/token`,
      registration_endpoint: `${OAUTH_ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('signs a person in (discovery, registration, PKCE, consent, GitHub, a token), lists tools, assembles as them, and refreshes', async () => {
    const fixture = githubFixture();
    const person = await createGitHubUser({ login: `mcp-reader-${crypto.randomUUID().slice(0, 8)}`, access: { [`${fixture.owner}/${fixture.repo}`]: 'read' } });
    const oauth = new MemoryOAuthClient('Test MCP client');
    const first = connect(oauth);
    await expect(first.mcp.connect(first.transport)).rejects.toThrow(/Unauthorized/);
    expect(oauth.authorizationUrl?.toString()).toMatch(new RegExp(`^${OAUTH_ORIGIN}/authorize\\?`));
    expect(oauth.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(oauth.authorizationUrl?.searchParams.get('resource')).toBe(MCP);
    expect(oauth.information?.client_id).toBeTruthy();

    const code = await authorizeInBrowser(oauth.authorizationUrl ?? new URL(MCP), person.login);
    await first.transport.finishAuth(code);
    const tokens = oauth.saved;
    expect(tokens?.access_token.split(':')).toHaveLength(3);
    expect(tokens?.refresh_token).toBeTruthy();

    const signedIn = connect(oauth);
    await signedIn.mcp.connect(signedIn.transport);
    const { tools } = await signedIn.mcp.listTools();
    expect(tools.map((tool) => tool.name)).toContain('assemble_context');
    const result = (await signedIn.mcp.callTool({ name: 'assemble_context', arguments: { repo: `${fixture.owner}/${fixture.repo}`, request: 'Explain the rules.' } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'ready', commit: fixture.commits.head });
    await signedIn.mcp.close();

    // A refresh: the SDK trades the refresh token for a new pair, and the new access token works.
    expect(await auth(oauth, { serverUrl: MCP, fetchFn: route })).toBe('AUTHORIZED');
    expect(oauth.saved?.access_token).not.toBe(tokens?.access_token);
    expect(oauth.saved?.refresh_token).not.toBe(tokens?.refresh_token);
    const refreshed = connect(oauth);
    await refreshed.mcp.connect(refreshed.transport);
    expect((await refreshed.mcp.listTools()).tools.length).toBeGreaterThan(5);
    await refreshed.mcp.close();
  });
});
