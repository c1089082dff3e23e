/**
 * @module sources/github/auth
 * How requests are authorised: a plain token, or a GitHub App installation token obtained with
 * an app JWT and cached until shortly before it expires. Hold one app auth per installation
 * (e.g. at module scope in the Worker) so every source built with it shares the cached token.
 */
import { z } from 'zod';
import { importAppKey, signAppJwt } from './app-jwt.ts';
import { untilAborted } from '../../lib/abortable.ts';
import { describeFailure, httpFailure } from './errors.ts';

/** POST /app/installations/{id}/access_tokens with the app JWT; resolves to the JSON body. */
export type TokenExchange = (input: { installationId: number; jwt: string; signal?: AbortSignal }) => Promise<unknown>;

/** No caller's signal bounds the shared exchange, so it has its own deadline: a hung one must not hold every later request. */
export const DEFAULT_EXCHANGE_TIMEOUT_MS = 10_000;

export interface GitHubAuth {
  /** The Authorization header for a repository request; may exchange credentials first. */
  authorization(exchange: TokenExchange, signal?: AbortSignal): Promise<string>;
}

/** A personal access token or any token minted elsewhere. */
export function tokenAuth(token: string): GitHubAuth {
  const header = `Bearer ${token}`;
  return { authorization: () => Promise.resolve(header) };
}

export interface AppAuthOptions {
  appId: number | string;
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). */
  privateKey: string;
  installationId: number;
  /** Wall clock in ms; injectable so tests can move past a token's expiry. */
  clock?: () => number;
  /** Renew this long before `expires_at` so a token never lapses mid-assembly. Default 5 minutes. */
  refreshMarginMs?: number;
  /** Deadline of one token exchange; default {@link DEFAULT_EXCHANGE_TIMEOUT_MS}. */
  exchangeTimeoutMs?: number;
}

const AccessToken = z.object({
  token: z.string().min(1),
  expires_at: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not a timestamp'),
});

/**
 * @example
 * const auth = createAppAuth({ appId: 123, privateKey: env.GITHUB_APP_KEY, installationId: 456 });
 * const source = createGitHubSource({ owner: 'acme', repo: 'widgets', auth });
 */
export function createAppAuth(options: AppAuthOptions): GitHubAuth {
  const clock = options.clock ?? Date.now;
  const margin = options.refreshMarginMs ?? 5 * 60_000;
  let key: Promise<CryptoKey> | undefined;
  let cached: { header: string; refreshAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const exchangeToken = async (exchange: TokenExchange): Promise<string> => {
    key ??= importAppKey(options.privateKey);
    const jwt = await signAppJwt({ appId: options.appId, key: await key, nowSeconds: Math.floor(clock() / 1000) });
    const timeoutMs = options.exchangeTimeoutMs ?? DEFAULT_EXCHANGE_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    let body: unknown;
    try {
      body = await exchange({ installationId: options.installationId, jwt, signal: deadline });
    } catch (error) {
      if (deadline.aborted) throw new Error(`GitHub App installation token request got no answer within ${timeoutMs} ms (installation ${options.installationId})`);
      throw new Error(describeTokenFailure(error, options));
    }
    const parsed = AccessToken.safeParse(body);
    if (!parsed.success) throw new Error(`GitHub App installation token response was not understood: ${parsed.error.message}`);
    cached = { header: `Bearer ${parsed.data.token}`, refreshAt: Date.parse(parsed.data.expires_at) - margin };
    return cached.header;
  };

  return {
    authorization(exchange, signal) {
      if (cached && clock() < cached.refreshAt) return Promise.resolve(cached.header);
      // One exchange serves every concurrent caller; it is not tied to any one caller's signal,
      // so a provider that times out cannot fail its neighbours' requests.
      pending ??= exchangeToken(exchange).finally(() => (pending = undefined));
      return untilAborted(pending, signal);
    },
  };
}

function describeTokenFailure(error: unknown, options: AppAuthOptions): string {
  const status = httpFailure(error)?.status;
  if (status === 401) {
    return `GitHub App authentication failed: bad credentials (401), GitHub rejected the app JWT; check the app id (${String(options.appId)}) and that the private key belongs to this app`;
  }
  if (status === 404) {
    return `GitHub App installation ${options.installationId} not found (404); check the installation id and that the app is still installed`;
  }
  return `GitHub App installation token request failed: ${describeFailure(error, `installation ${options.installationId}`)}`;
}
