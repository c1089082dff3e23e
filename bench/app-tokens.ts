/**
 * GitHub App installation tokens across isolates (issue 18), against the local GitHub API
 * server: 20 cold tasks on one installation, each with a fresh auth and empty memory as a fresh
 * isolate has, once with only memory (what a per-isolate cache gives) and once sharing a
 * Map-backed token store (what KV gives); then the sequential rounds of a cold task when the
 * store already holds a token, beside one that must mint.
 */
import { generateKeyPairSync } from 'node:crypto';
import { z } from 'zod';
import { appInstallationAuth, createGitHubSource } from '../src/sources/github/index.ts';
import type { KeyValueStore } from '../src/sources/key-value-store.ts';
import { createGitRepo } from '../test/support/git-fixtures.ts';
import { rounds } from '../test/support/github-api-scope.ts';
import { startGitHubServerThread } from '../test/support/github-server-thread.ts';
import { assembleWithProviders, repoShape, writeRepoShape } from './repo-shape.ts';

const TASKS = 20;
const LATENCY_MS = 300;
const INSTALLATION = 7;

const StatsSchema = z.object({
  requests: z.array(z.object({ method: z.string(), path: z.string(), status: z.number(), startedAt: z.number(), endedAt: z.number() })),
});

export async function benchAppTokens(): Promise<string[]> {
  const repo = createGitRepo();
  try {
    const shape = repoShape('a/b/c/d/e');
    writeRepoShape(repo, shape);
    const commit = repo.commitAll('bench');
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const server = await startGitHubServerThread({
      repoDir: repo.dir,
      owner: 'acme',
      repo: 'widgets',
      appId: '1',
      installationId: INSTALLATION,
      appPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      personalToken: 'ghp_unused',
    });
    // The key exactly as GitHub hands it out.
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    try {
      return await measure(server.origin, async (baseUrl, store) => {
        const auth = appInstallationAuth({ issuer: '1', privateKey: pem, installationId: INSTALLATION, memory: new Map(), ...(store ? { tokenStore: store } : {}) });
        await assembleWithProviders(createGitHubSource({ owner: 'acme', repo: 'widgets', auth, baseUrl }).snapshot(commit), shape);
      });
    } finally {
      await server.close();
    }
  } finally {
    repo.remove();
  }
}

type ColdTask = (baseUrl: string, store: KeyValueStore | undefined) => Promise<void>;

async function measure(origin: string, coldTask: ColdTask): Promise<string[]> {
  let scopes = 0;
  const scope = async (latencyMs: number) => {
    const name = `tokens-${++scopes}`;
    const response = await fetch(`${origin}/__control/${name}`, { method: 'POST', body: JSON.stringify({ latencyMs }) });
    if (!response.ok) throw new Error(`control endpoint answered ${response.status}`);
    const requests = async () => StatsSchema.parse(await (await fetch(`${origin}/__stats/${name}`)).json()).requests;
    return { baseUrl: `${origin}/s/${name}`, requests };
  };
  const mints = (requests: { path: string }[]) => requests.filter((request) => request.path.endsWith('/access_tokens')).length;

  const tasks = async (store: KeyValueStore | undefined) => {
    const at = await scope(0);
    for (let i = 0; i < TASKS; i++) await coldTask(at.baseUrl, store);
    return mints(await at.requests());
  };
  const memoryOnly = await tasks(undefined);
  const shared = await tasks(mapStore());

  // One scope for both tasks: stored tokens are keyed by the API base URL, and each scope has its own.
  const store = mapStore();
  const at = await scope(LATENCY_MS);
  await coldTask(at.baseUrl, store);
  const first = await at.requests();
  await coldTask(at.baseUrl, store);
  const second = (await at.requests()).slice(first.length);
  return [
    `github app tokens: ${TASKS} cold tasks on one installation, each a fresh isolate (new auth, empty memory): ${memoryOnly} token requests with memory only, ${shared} sharing a token store as KV (goal 1)`,
    `github app tokens: cold task from a pinned commit at ${LATENCY_MS} ms latency: ${rounds(first)} sequential rounds (${mints(first)} token request) when it must mint, ${rounds(second)} (${mints(second)} token requests) when the store holds a token (goal: no token round)`,
  ];
}

function mapStore(): KeyValueStore {
  const values = new Map<string, string>();
  return { get: async (key) => values.get(key) ?? null, put: async (key, value) => void values.set(key, value) };
}
