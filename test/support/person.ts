/**
 * @module test/support/person
 * A person of this test's own: a GitHub user made on the GitHub API test server with the access
 * the test gives them, signed in to Groundwork as an MCP client signs in (test/support/oauth-client),
 * with an access token for the REST API (resource `https://groundwork.test`) or for `/mcp`.
 */
import { api } from './api.ts';
import { createGitHubUser } from './github-api-client.ts';
import type { Permission } from './github-api-users.ts';
import { OAUTH_ORIGIN } from './oauth-browser.ts';
import { MemoryOAuthClient, signIn } from './oauth-client.ts';

export interface Person {
  login: string;
  id: number;
  /** `github-user:<id>`. */
  tenant: string;
  token: string;
  refreshToken: string | undefined;
  client: MemoryOAuthClient;
  /** The REST API as this person, at the origin that offers OAuth. */
  api(method: string, path: string, body?: unknown): ReturnType<typeof api>;
}

export async function signedInPerson(access: Record<string, Permission>, options: { resource?: 'api' | 'mcp'; tokenTtlSeconds?: number; name?: string } = {}): Promise<Person> {
  const login = `${options.name ?? 'person'}-${crypto.randomUUID().slice(0, 8)}`;
  const user = await createGitHubUser({ login, access, ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }) });
  const { client, tokens } = await signIn(login, options.resource === 'mcp' ? `${OAUTH_ORIGIN}/mcp` : `${OAUTH_ORIGIN}/tasks`);
  const token = tokens.access_token;
  return {
    login,
    id: user.id,
    tenant: `github-user:${user.id}`,
    token,
    refreshToken: tokens.refresh_token,
    client,
    api: (method, path, body) => api(method, path, { token, origin: OAUTH_ORIGIN, ...(body === undefined ? {} : { body }) }),
  };
}
