/**
 * @module sources/github/client
 * Builds the Octokit client every GitHub call goes through: the injected fetch (wrapped with
 * the retry policy, which so also covers the token exchange), the API base URL (GitHub
 * Enterprise Server) and the auth strategy: a token, or @octokit/auth-app for an installation.
 */
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import * as z from 'zod';
import { checkAppKey } from './app-key.ts';
import { appJwtInAdvance } from './app-jwt.ts';
import { untilAborted } from '../../lib/abortable.ts';
import { DEFAULT_EXCHANGE_TIMEOUT_MS, describeTokenFailure } from './auth.ts';
import type { AppInstallationAuth, GitHubAuth } from './auth.ts';
import { httpFailure, isPermanentFailure, rethrowIfAborted } from './errors.ts';
import { PermanentSourceError } from '../permanent.ts';
import { boundTokenExchange, TOKEN_URL } from './exchange-deadline.ts';
import { pathParamsProblem } from './path-params.ts';
import { DEFAULT_RETRY_POLICY, withRetries } from './retry.ts';
import type { Fetch, RetryPolicy } from './retry.ts';
import { createTokenCache, REFUSAL_MEMORY_MS, type InstallationTokenCache } from './token-cache.ts';

export const GITHUB_API_URL = 'https://api.github.com';

/** auth-app itself retries a 401 on a token younger than this (replication delay). */
const FRESH_TOKEN_MS = 5_000;

export interface GitHubClientOptions {
  auth: GitHubAuth;
  /** e.g. `https://ghe.example.com/api/v3`; defaults to api.github.com. */
  baseUrl?: string;
  /** Defaults to the global fetch; Workers and tests pass their own. */
  fetch?: Fetch;
  retry?: Partial<RetryPolicy>;
}

const InstallationToken = z.object({ createdAt: z.string() });

/**
 * @example
 * const octokit = createGitHubClient({ auth: tokenAuth(env.GITHUB_TOKEN), fetch });
 */
export function createGitHubClient(options: GitHubClientOptions): Octokit {
  // Calling the global fetch detached from globalThis throws "Illegal invocation" in workerd.
  const fetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const baseUrl = (options.baseUrl ?? GITHUB_API_URL).replace(/\/+$/, '');
  const { auth } = options;
  const retrying = withRetries(fetch, { ...DEFAULT_RETRY_POLICY, ...options.retry });
  const common = {
    baseUrl,
    userAgent: 'groundwork',
    request: { fetch: auth.kind === 'app-installation' ? boundTokenExchange(retrying, auth.tokens.exchangeTimeoutMs ?? DEFAULT_EXCHANGE_TIMEOUT_MS) : retrying },
    // Failures come back as values with reasons; Octokit's own error logging would be noise.
    log: { debug: () => {}, info: () => {}, warn: (message: string) => console.warn(message), error: () => {} },
  };
  if (auth.kind === 'token') {
    const octokit = new Octokit({ ...common, auth: auth.token });
    octokit.hook.wrap('request', (request, endpoint) => waitFor(() => request(endpoint), endpoint.request?.signal));
    return refuseForeignPaths(octokit);
  }
  if (!auth.key.ok) {
    const refusal = auth.key.error;
    const octokit = new Octokit(common);
    octokit.hook.wrap('request', () => Promise.reject(new PermanentSourceError(refusal)));
    return octokit;
  }

  const privateKey = auth.key.pkcs8;
  const { tokenStore, ahead, ...tokenOptions } = auth.tokens;
  // The JWT is signed while the cache reads the store, not after its miss (app-jwt).
  const jwt = appJwtInAdvance(auth.issuer, privateKey);
  const cache = createTokenCache({ ...tokenOptions, ...(tokenStore ? { store: tokenStore } : {}), scope: `${baseUrl} ${auth.issuer}`, secret: privateKey, onStoreRead: jwt.signNow });
  const octokit = new Octokit({ ...common, authStrategy: createAppAuth, auth: { appId: auth.issuer, createJwt: jwt.take, installationId: auth.installationId, cache } });

  // Registered after the auth strategy's hook, so this one wraps it and sees the token step fail.
  octokit.hook.wrap('request', async (request, endpoint) => {
    const signal = endpoint.request?.signal;
    // The exchange begun ahead (tasks/token-ahead) is this client's: its failure is this request's, as if made here.
    if (ahead) await waitFor(() => ahead, signal);
    const keyProblem = await checkAppKey(privateKey);
    if (keyProblem) throw new PermanentSourceError(keyProblem);
    const refused = cache.refused(auth.installationId);
    if (refused) throw new PermanentSourceError(`${refused.reason} (GitHub's answer ${Math.round(refused.ageMs / 1000)} s ago; not asked again until ${REFUSAL_MEMORY_MS / 1000} s after it)`);
    try {
      return await waitFor(() => request(endpoint), signal);
    } catch (error) {
      rethrowIfAborted(signal);
      const failure = httpFailure(error);
      if (failure?.url && TOKEN_URL.test(failure.url)) throw tokenFailure(error, auth, cache);
      if (failure?.status !== 401 || !(await renewStaleToken(octokit, auth, cache))) throw error;
      return waitFor(() => request(endpoint), signal);
    }
  });
  return refuseForeignPaths(octokit);
}

/**
 * The token step's failure, named for a person, and permanent when GitHub's answer was (a key it
 * rejects, an installation it does not know): a task then fails at once with that reason instead
 * of re-signing an App JWT for every retry that cannot succeed, and the isolate remembers the
 * answer for a minute (token-cache), so the next request for the installation does not ask again.
 */
function tokenFailure(error: unknown, auth: AppInstallationAuth, cache: InstallationTokenCache): Error {
  const reason = describeTokenFailure(error, auth);
  if (!isPermanentFailure(error)) return new Error(reason);
  cache.refuse(auth.installationId, reason);
  return new PermanentSourceError(reason);
}

/**
 * Registered last, so it runs first on every request (token exchange included): a path
 * parameter of `.`, `..` or a name GitHub could not have given never reaches a URL.
 */
function refuseForeignPaths(octokit: Octokit): Octokit {
  octokit.hook.before('request', (endpoint) => {
    const problem = pathParamsProblem(endpoint);
    if (problem) throw new Error(`refused to request ${endpoint.method} ${endpoint.url}: ${problem}`);
  });
  return octokit;
}

/**
 * A 401 with a token that came from the cache means it was revoked early (installation
 * suspended and back, key rotated): mint a new one and let the caller try once more. A token
 * minted moments ago is not renewed; auth-app has already retried it.
 */
async function renewStaleToken(octokit: Octokit, auth: AppInstallationAuth, cache: InstallationTokenCache): Promise<boolean> {
  try {
    const current = InstallationToken.safeParse(await octokit.auth({ type: 'installation' }));
    if (!current.success || Date.now() - Date.parse(current.data.createdAt) < FRESH_TOKEN_MS) return false;
    await octokit.auth({ type: 'installation', refresh: true });
    return true;
  } catch (error) {
    throw tokenFailure(error, auth, cache);
  }
}

/**
 * An installation token is minted once for every concurrent caller and not tied to any one
 * caller's signal, so a provider that times out cannot fail its neighbours' requests; each
 * caller still stops waiting when its own signal fires.
 */
function waitFor<T>(start: () => T | Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  rethrowIfAborted(signal ?? undefined);
  return untilAborted(Promise.resolve(start()), signal ?? undefined);
}
