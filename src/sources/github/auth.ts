/**
 * @module sources/github/auth
 * How GitHub requests are authorised: a plain token, or a GitHub App installation whose tokens
 * @octokit/auth-app mints with an App JWT (universal-github-app-jwt, on Web Crypto) and keeps in
 * a token cache that can be shared across isolates (token-cache). These are descriptions; the
 * client (client.ts) turns one into Octokit's auth strategy.
 */
import type { KeyValueStore } from '../key-value-store.ts';
import { normaliseAppKey, type AppKeyResult } from './app-key.ts';
import { describeFailure, httpFailure } from './errors.ts';
import type { MemoryEntry } from './token-cache.ts';

export type GitHubAuth = TokenAuth | AppInstallationAuth;

export interface TokenAuth {
  kind: 'token';
  token: string;
}

export interface AppInstallationAuth {
  kind: 'app-installation';
  /** The App JWT's issuer: the App's Client ID (GitHub's recommendation) or its numeric App ID. */
  issuer: string;
  key: AppKeyResult;
  installationId: number;
  tokens: Pick<AppInstallationAuthOptions, 'tokenStore' | 'memory' | 'clock' | 'refreshMarginMs' | 'exchangeTimeoutMs'> & {
    /**
     * The exchange begun ahead for this credential (tasks/token-ahead): a client waits on it before
     * its first request, then finds its token in the cache, or fails with its failure.
     */
    ahead?: Promise<unknown>;
  };
}

export interface AppInstallationAuthOptions {
  /** App ID or Client ID. */
  issuer: string | number;
  /** PEM as GitHub issues it (PKCS#1) or PKCS#8, with real or `\n`-escaped newlines. */
  privateKey: string;
  installationId: number;
  /** Where installation tokens are shared across isolates (Workers KV); memory only without it. */
  tokenStore?: KeyValueStore;
  /** The isolate's token memory; tests pass a fresh map to play a fresh isolate. */
  memory?: Map<string, MemoryEntry>;
  /** Wall clock in ms for token expiry; injectable so tests can move past it. */
  clock?: () => number;
  /** Renew this long before `expires_at` so a token never lapses mid-assembly. Default 5 minutes. */
  refreshMarginMs?: number;
  /** Deadline of one token exchange, retries included; default {@link DEFAULT_EXCHANGE_TIMEOUT_MS}. */
  exchangeTimeoutMs?: number;
}

/**
 * No caller's signal bounds the token exchange: every request of the installation in the isolate
 * waits on the one in flight. So it has its own deadline, and a hung exchange fails its waiters
 * and makes way for the next one instead of holding every later request.
 */
export const DEFAULT_EXCHANGE_TIMEOUT_MS = 10_000;

/** The token exchange got no (complete) answer within its deadline. */
export class ExchangeTimeout extends Error {
  override readonly name = 'ExchangeTimeout';
}

/** A personal access token or any token minted elsewhere. */
export function tokenAuth(token: string): GitHubAuth {
  return { kind: 'token', token };
}

/**
 * A key that cannot be used is kept as an error, reported by the first request, so a task
 * fails with a reason saying what to do instead of the Worker failing to start.
 *
 * @example
 * const auth = appInstallationAuth({ issuer: 'Iv23liAbc', privateKey: env.GITHUB_APP_PRIVATE_KEY, installationId: 456, tokenStore: env.TENANTS });
 * const source = createGitHubSource({ owner: 'acme', repo: 'widgets', auth });
 */
export function appInstallationAuth(options: AppInstallationAuthOptions): GitHubAuth {
  const { tokenStore, memory, clock, refreshMarginMs, exchangeTimeoutMs } = options;
  return {
    kind: 'app-installation',
    issuer: String(options.issuer),
    key: normaliseAppKey(options.privateKey),
    installationId: options.installationId,
    tokens: {
      ...(tokenStore ? { tokenStore } : {}),
      ...(memory ? { memory } : {}),
      ...(clock ? { clock } : {}),
      ...(refreshMarginMs === undefined ? {} : { refreshMarginMs }),
      ...(exchangeTimeoutMs === undefined ? {} : { exchangeTimeoutMs }),
    },
  };
}

/** The installation-token step failed: name the installation and what to check. */
export function describeTokenFailure(error: unknown, auth: AppInstallationAuth): string {
  const timeout = error instanceof ExchangeTimeout ? error : error instanceof Error && error.cause instanceof ExchangeTimeout ? error.cause : undefined;
  if (timeout) return `GitHub App installation token request ${timeout.message} (installation ${auth.installationId})`;
  const status = httpFailure(error)?.status;
  if (status === 401) {
    return `GitHub App authentication failed for installation ${auth.installationId}: bad credentials (401), GitHub rejected the app JWT; check the App ID or Client ID (${auth.issuer}) and that the private key belongs to this app`;
  }
  if (status === 404) {
    return `GitHub App installation ${auth.installationId} not found (404); check the installation id and that the app is still installed`;
  }
  return `GitHub App installation token request failed: ${describeFailure(error, `installation ${auth.installationId}`)}`;
}
