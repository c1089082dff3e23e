/**
 * @module sources/github/token-cache
 * The `cache` of @octokit/auth-app, shared beyond one isolate: an installation token minted by
 * one Task object is found by the next one, wherever it runs, instead of costing every cold
 * isolate a round trip to `POST /app/installations/{id}/access_tokens`.
 *
 * Two layers: memory (per isolate, re-read from the store after a few minutes, so a token the
 * store has dropped does not live on here) and a key-value store (Workers KV). Entries expire a
 * margin before the token does, checked on every read, because a KV read may be up to a minute
 * stale and auth-app itself never looks at a cached token's expiry.
 *
 * What the store holds: the token sealed with AES-GCM under a key derived (HKDF) from the App's
 * private key, with the store key as associated data. Reading the store alone yields nothing
 * usable; whoever holds the private key can mint such tokens anyway.
 *
 * The isolate's memory also keeps GitHub's permanent refusals for a minute (InstallationTokenCache).
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { untilAborted } from '../../lib/abortable.ts';
import { sha256Hex } from '../../lib/sha256.ts';
import type { KeyValueStore } from '../key-value-store.ts';
import { base64ToBytes, bytesToBase64 } from './base64.ts';

/** The shape auth-app calls; a miss is the empty string, which auth-app treats as absent. */
export interface TokenCache {
  get(key: string): Promise<string>;
  set(key: string, value: string): Promise<void>;
}

/**
 * The cache, and GitHub's permanent refusals to mint a token (a key it rejects, an installation
 * it does not know), remembered in the isolate's memory for {@link REFUSAL_MEMORY_MS}: a burst of
 * deliveries for a broken installation, and each task's check run after its failure, would
 * otherwise sign a JWT and ask again for every request, to meet the same answer. Never shared
 * through the store: a fixed installation is asked again within a minute by every isolate.
 */
export interface InstallationTokenCache extends TokenCache {
  /** The refusal's reason and how long ago GitHub gave it, while it is remembered. */
  refused(installationId: number): { reason: string; ageMs: number } | undefined;
  refuse(installationId: number, reason: string): void;
}

export const REFUSAL_MEMORY_MS = 60_000;

export interface MemoryEntry {
  value: string;
  usableUntil: number;
}

export interface TokenCacheOptions {
  /** Shared store (KV); without it tokens live in memory only. */
  store?: KeyValueStore;
  /** What the tokens belong to beyond the installation id: the API base URL and the App's issuer. */
  scope: string;
  /** The App's private key (PKCS#8 PEM): the sealing key is derived from it. */
  secret: string;
  /** Defaults to one map per isolate; tests pass a fresh map to play a fresh isolate. */
  memory?: Map<string, MemoryEntry>;
  clock?: () => number;
  /** Stop using a token this long before `expires_at`. Default 5 minutes. */
  refreshMarginMs?: number;
  /** Told as a read goes to the store, which a miss then follows with an exchange (app-jwt signs beside it). */
  onStoreRead?: () => void;
}

export const TOKEN_KEY_PREFIX = 'installation-token:v1:';
/** How long an isolate trusts its memory before asking the store again. */
const MEMORY_TTL_MS = 5 * 60_000;
/**
 * How long a store read or write may take. The store is an optimisation inside the one token
 * exchange every request of the installation waits on: a store that does not answer is a miss.
 */
const STORE_TIMEOUT_MS = 2_000;
/** Workers KV refuses an expirationTtl under 60 seconds. */
const MIN_STORE_TTL_SECONDS = 60;
const SEAL_INFO = 'groundwork installation token cache v1';

const isolateMemory = new Map<string, MemoryEntry>();

const Sealed = lazySchema(() => z.object({ v: z.literal(1), iv: z.string(), data: z.string() }));

/**
 * @example
 * const cache = createTokenCache({ store: env.TENANTS, scope: `${apiUrl} ${appId}`, secret: pkcs8 });
 * new Octokit({ authStrategy: createAppAuth, auth: { appId, privateKey: pkcs8, installationId, cache } });
 */
export function createTokenCache(options: TokenCacheOptions): InstallationTokenCache {
  const { store, scope } = options;
  const memory = options.memory ?? isolateMemory;
  const clock = options.clock ?? Date.now;
  const margin = options.refreshMarginMs ?? 5 * 60_000;
  let sealKey: Promise<CryptoKey> | undefined;
  const key = () => (sealKey ??= deriveSealKey(options.secret));

  // Not an auth-app key (those start with the installation id), so the two never meet.
  const refusalKey = (installationId: number) => `${scope}\0refused\0${installationId}`;

  return {
    refused(installationId) {
      const entry = memory.get(refusalKey(installationId));
      const now = clock();
      if (!entry || now >= entry.usableUntil) return undefined;
      return { reason: entry.value, ageMs: now - (entry.usableUntil - REFUSAL_MEMORY_MS) };
    },

    refuse(installationId, reason) {
      memory.set(refusalKey(installationId), { value: reason, usableUntil: clock() + REFUSAL_MEMORY_MS });
    },

    async get(cacheKey) {
      const local = memory.get(`${scope}\0${cacheKey}`);
      if (local && clock() < local.usableUntil) return local.value;
      const storeKey = store && (await tokenStoreKey(scope, cacheKey));
      if (!store || !storeKey) return '';
      options.onStoreRead?.();
      let sealed: string | null;
      try {
        sealed = await untilAborted(store.get(storeKey, 'text'), AbortSignal.timeout(STORE_TIMEOUT_MS));
      } catch {
        return '';
      }
      const value = sealed === null ? undefined : await unseal(await key(), storeKey, sealed);
      const until = value === undefined ? undefined : usableUntil(value, margin);
      if (value === undefined || until === undefined || clock() >= until) return '';
      memory.set(`${scope}\0${cacheKey}`, { value, usableUntil: Math.min(until, clock() + MEMORY_TTL_MS) });
      return value;
    },

    async set(cacheKey, value) {
      const until = usableUntil(value, margin);
      if (until === undefined || clock() >= until) return;
      memory.set(`${scope}\0${cacheKey}`, { value, usableUntil: Math.min(until, clock() + MEMORY_TTL_MS) });
      const storeKey = store && (await tokenStoreKey(scope, cacheKey));
      const ttl = Math.floor((until - clock()) / 1000);
      if (!store || !storeKey || ttl < MIN_STORE_TTL_SECONDS) return;
      const write = async (): Promise<void> => {
        try {
          const sealed = await seal(await key(), storeKey, value);
          await untilAborted(store.put(storeKey, sealed, { expirationTtl: ttl }), AbortSignal.timeout(STORE_TIMEOUT_MS));
        } catch {
          // The store is an optimisation: the token in hand still serves this task.
        }
      };
      // A store that writes behind (a task's, sources/write-behind) lets the first request go
      // out with the token while it is sealed and stored; another store is written first.
      if (store.defer) store.defer(write);
      else await write();
    },
  };
}

/**
 * auth-app keys its cache by `installationId|repositoryIds|repositoryNames|permissions`. The
 * store key leads with the installation id so one installation's tokens can be listed and
 * forgotten; the rest is hashed with the scope. Keys without an installation id stay in memory.
 */
export async function tokenStoreKey(scope: string, cacheKey: string): Promise<string | undefined> {
  const installation = cacheKey.split('|')[0] ?? '';
  if (!/^[1-9]\d{0,18}$/.test(installation)) return undefined;
  return `${TOKEN_KEY_PREFIX}${installation}:${(await sha256Hex(`${scope}\0${cacheKey}`)).slice(0, 32)}`;
}

/** The slice of Workers KV that forgetting tokens needs. */
export interface ListableStore {
  list(options: { prefix: string; cursor?: string }): Promise<{ keys: { name: string }[]; list_complete: boolean; cursor?: string }>;
  delete(key: string): Promise<void>;
}

/**
 * Drops every stored token of an installation, e.g. when its permissions change (a stored token
 * keeps the old ones until it expires) or it is suspended or deleted (the token is revoked).
 * Isolates that hold the token in memory re-read the store within MEMORY_TTL_MS.
 */
export async function forgetInstallationTokens(store: ListableStore, installationId: number): Promise<number> {
  let forgotten = 0;
  let cursor: string | undefined;
  do {
    const page = await store.list({ prefix: `${TOKEN_KEY_PREFIX}${installationId}:`, ...(cursor ? { cursor } : {}) });
    await Promise.all(page.keys.map((key) => store.delete(key.name)));
    forgotten += page.keys.length;
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return forgotten;
}

/** auth-app's value is `token|createdAt|expiresAt|…`; a value without a readable expiry is never used. */
function usableUntil(value: string, margin: number): number | undefined {
  const expiresAt = Date.parse(value.split('|')[2] ?? '');
  return Number.isNaN(expiresAt) ? undefined : expiresAt - margin;
}

async function deriveSealKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: new TextEncoder().encode(SEAL_INFO) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

async function seal(key: CryptoKey, storeKey: string, value: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(storeKey) }, key, new TextEncoder().encode(value));
  return JSON.stringify({ v: 1, iv: bytesToBase64(iv), data: bytesToBase64(new Uint8Array(data)) });
}

/** Undefined for anything not sealed by this App's key under this store key. */
async function unseal(key: CryptoKey, storeKey: string, text: string): Promise<string | undefined> {
  try {
    const sealed = Sealed.parse(JSON.parse(text));
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: base64ToBytes(sealed.iv), additionalData: new TextEncoder().encode(storeKey) },
      key,
      base64ToBytes(sealed.data),
    );
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(plain);
  } catch {
    return undefined;
  }
}
