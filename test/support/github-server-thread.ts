/**
 * The local GitHub API server on a worker thread of its own. The server answers by spawning
 * git, which blocks its event loop for a few milliseconds per call; sharing a thread with
 * anything else (the bench's client, vitest's other global servers) would hold back parallel
 * requests and spread them over extra "rounds". Used by the tests' global setup and the bench.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { startGitHubApiServer, type GitHubApiServerOptions } from './github-api-server.ts';

const Ready = z.object({ port: z.number().int().positive() });
const Options = z.object({
  repoDir: z.string(),
  owner: z.string(),
  repo: z.string(),
  appId: z.string(),
  appClientId: z.string().optional(),
  appClientSecret: z.string().optional(),
  installationId: z.number(),
  appPublicKeyPem: z.string(),
  personalToken: z.string(),
  pulls: z
    .array(
      z.object({
        number: z.number().int(),
        base: z.object({ ref: z.string(), rev: z.string() }),
        head: z.object({ ref: z.string(), rev: z.string() }),
        title: z.string().optional(),
        body: z.string().nullable().optional(),
        author: z.string().optional(),
        labels: z.array(z.string()).optional(),
        draft: z.boolean().optional(),
      }),
    )
    .optional(),
}) satisfies z.ZodType<GitHubApiServerOptions>;

export interface ServerThread {
  origin: string;
  close(): Promise<void>;
}

export async function startGitHubServerThread(options: GitHubApiServerOptions): Promise<ServerThread> {
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  try {
    const ready = await new Promise<unknown>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`GitHub API server thread exited with ${code} before it listened`)));
    });
    const { port } = Ready.parse(ready);
    return {
      origin: `http://127.0.0.1:${port}`,
      async close() {
        worker.postMessage('close');
        await exited;
      },
    };
  } catch (error) {
    await worker.terminate();
    throw error;
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const server = await startGitHubApiServer(Options.parse(workerData));
  port.once('message', () => {
    void server.close().then(() => port.close());
  });
  port.postMessage({ port: server.port });
}
