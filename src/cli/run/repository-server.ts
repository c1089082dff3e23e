/**
 * @module cli/run/repository-server
 * Serves one local repository over smart HTTP on loopback, at `/repository.git`, through
 * `git http-backend`. The Worker fetches the commit `groundwork run` pinned by its sha, so any
 * commit of the repository may be asked for (`uploadpack.allowAnySHA1InWant`), including one no
 * branch reaches, as a linked worktree's detached HEAD. Requests are counted, to show what a run
 * fetched and what came from the cache.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';
import { serveWithHttpBackend } from './git-http-backend.ts';

export const REPOSITORY_PATH = '/repository.git';

export interface RepositoryServer {
  /** `http://127.0.0.1:<port>/repository.git` */
  url: string;
  /** Requests answered so far, by kind: `info/refs`, `git-upload-pack`, anything else. */
  requests(): { total: number; uploadPack: number };
  close(): Promise<void>;
}

export async function serveRepository(gitdir: string, options: { port?: number } = {}): Promise<RepositoryServer> {
  const children = new Set<ChildProcess>();
  const counts = { total: 0, uploadPack: 0 };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!url.pathname.startsWith(`${REPOSITORY_PATH}/`) || (req.method !== 'GET' && req.method !== 'POST')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    counts.total++;
    if (url.pathname.endsWith('/git-upload-pack')) counts.uploadPack++;
    // Only fetching is served: the receive-pack service stays off (http-backend's default without auth).
    const child = serveWithHttpBackend(
      {
        projectRoot: dirname(gitdir),
        pathInfo: `/${basename(gitdir)}${url.pathname.slice(REPOSITORY_PATH.length)}`,
        query: url.search.slice(1),
        env: gitEnvironment(),
      },
      req,
      res,
    );
    children.add(child);
    child.on('close', () => children.delete(child));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${REPOSITORY_PATH}`,
    requests: () => ({ ...counts }),
    close: async () => {
      for (const child of children) child.kill('SIGTERM');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Runs the `git pack-objects` upload-pack would run, with `--missing=allow-any`: an object the
 * repository does not have (a partial clone's unfetched blob, one deleted from the store) is left
 * out of the pack instead of failing it, and never fetched from the clone's remote (which may be
 * offline). The Worker gets every object there is; a task that needs a missing file says it could
 * not read it, as `groundwork context` does. upload-pack appends the command it would have run
 * (git-config(1), uploadpack.packObjectsHook); the hook is honoured only from protected config,
 * which includes the command scope set here (git's t/t5544-pack-objects-hook.sh: "hook runs from
 * -c config", "hook does not run from repo config"; checked with git 2.39 by
 * test/node/run-partial.test.ts, whose clone's remote stays reachable and is never fetched from).
 */
const PACK_WHAT_EXISTS = 'pack() { "$@" --missing=allow-any; }; pack';

/** The user's environment minus GIT_* variables that would point git elsewhere, plus the serving config. */
function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'uploadpack.allowAnySHA1InWant',
    GIT_CONFIG_VALUE_0: 'true',
    GIT_CONFIG_KEY_1: 'uploadpack.packObjectsHook',
    GIT_CONFIG_VALUE_1: PACK_WHAT_EXISTS,
  };
}
