/**
 * @module sources/github/client
 * Builds the Octokit client every GitHub call goes through: the injected fetch (wrapped with
 * the retry policy), the API base URL (GitHub Enterprise Server) and the auth hook.
 */
import { Octokit } from '@octokit/rest';
import type { GitHubAuth, TokenExchange } from './auth.ts';
import { DEFAULT_RETRY_POLICY, withRetries } from './retry.ts';
import type { Fetch, RetryPolicy } from './retry.ts';

export const GITHUB_API_URL = 'https://api.github.com';

const TOKEN_ROUTE = '/app/installations/{installation_id}/access_tokens';

export interface GitHubClientOptions {
  auth: GitHubAuth;
  /** e.g. `https://ghe.example.com/api/v3`; defaults to api.github.com. */
  baseUrl?: string;
  /** Defaults to the global fetch; Workers and tests pass their own. */
  fetch?: Fetch;
  retry?: Partial<RetryPolicy>;
}

/**
 * @example
 * const octokit = createGitHubClient({ auth: tokenAuth(env.GITHUB_TOKEN), fetch });
 */
export function createGitHubClient(options: GitHubClientOptions): Octokit {
  // Calling the global fetch detached from globalThis throws "Illegal invocation" in workerd.
  const fetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const octokit = new Octokit({
    baseUrl: (options.baseUrl ?? GITHUB_API_URL).replace(/\/+$/, ''),
    userAgent: 'groundwork',
    request: { fetch: withRetries(fetch, { ...DEFAULT_RETRY_POLICY, ...options.retry }) },
    // Failures come back as values with reasons; Octokit's own error logging would be noise.
    log: { debug: () => {}, info: () => {}, warn: (message) => console.warn(message), error: () => {} },
  });

  const exchange: TokenExchange = async ({ installationId, jwt, signal }) => {
    const response = await octokit.request(`POST ${TOKEN_ROUTE}`, {
      installation_id: installationId,
      headers: { authorization: `Bearer ${jwt}` },
      ...(signal ? { request: { signal } } : {}),
    });
    return response.data;
  };

  octokit.hook.wrap('request', async (request, endpoint) => {
    // The token route carries the app JWT set above; every other route needs the installation token.
    if (endpoint.url !== TOKEN_ROUTE) {
      endpoint.headers.authorization = await options.auth.authorization(exchange, endpoint.request?.signal);
    }
    return request(endpoint);
  });
  return octokit;
}
