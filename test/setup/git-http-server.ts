/**
 * @module test/setup/git-http-server
 * Vitest global setup: real repositories served over smart HTTP by `git http-backend` (as CGI,
 * behind a small Node server on 127.0.0.1), so workerd tests fetch from a genuine git server.
 *
 * Repositories: `sample.git` (see buildSampleRepo), `moving.git` (advanced on demand by
 * `POST /_control/moving.git/advance`), and `history.git` (a large incompressible blob added,
 * then deleted). Under `/v1/` the same repositories are served as by a server that predates
 * protocol v2. Anything under `/_unavailable/` answers 503, as a git host that is down, and
 * `/_redirect/<host>/…` redirects to `<host>` on this server's port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { serveWithHttpBackend } from '../../src/cli/run/git-http-backend.ts';
import { buildSampleRepo, cloneBare, createGitRepo, gitEnv, incompressibleBytes, type GitFixture } from '../support/git-fixtures.ts';

export interface GitHttpFixtures {
  sample: { first: string; head: string };
  moving: { head: string };
  /** `big` added a 1 MiB incompressible blob; `small` (its child, the tip) deleted it. */
  history: { big: string; small: string; bigBytes: number };
}

declare module 'vitest' {
  export interface ProvidedContext {
    gitHttpPort: number;
    gitHttpFixtures: GitHttpFixtures;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = mkdtempSync(join(tmpdir(), 'groundwork-git-http-'));
  const work: GitFixture[] = [];
  const fresh = (): GitFixture => {
    const repo = createGitRepo();
    work.push(repo);
    return repo;
  };

  const sampleWork = fresh();
  const sample = buildSampleRepo(sampleWork);
  cloneBare(sampleWork, root, 'sample.git');

  const movingWork = fresh();
  movingWork.write('AGENTS.md', 'version 1\n');
  const moving = { head: movingWork.commitAll('v1') };
  const movingBare = cloneBare(movingWork, root, 'moving.git');
  movingWork.git('remote', 'add', 'origin', movingBare);

  const historyWork = fresh();
  const bigBytes = 1024 * 1024;
  historyWork.write('AGENTS.md', 'history\n');
  historyWork.write('big.bin', incompressibleBytes(bigBytes));
  const big = historyWork.commitAll('add big');
  historyWork.git('rm', '--quiet', 'big.bin');
  const history = { big, small: historyWork.commitAll('drop big'), bigBytes };
  cloneBare(historyWork, root, 'history.git');

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/_control/moving.git/advance') {
      movingWork.write('AGENTS.md', `version ${Date.now()}\n`);
      const head = movingWork.commitAll('advance');
      movingWork.git('push', '--quiet', 'origin', 'main');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ head }));
      return;
    }
    // `/_redirect/<host>/<path>` answers 302 to the same path on another host name of this server.
    const redirect = /^\/_redirect\/([^/]+)(\/.*)$/.exec(url.pathname);
    if (redirect) {
      res.writeHead(302, { location: `http://${redirect[1]}:${(server.address() as AddressInfo).port}${redirect[2]}${url.search}` }).end();
      return;
    }
    // A git host that is down: every request under it fails with 503, which callers should retry.
    if (url.pathname.startsWith('/_unavailable/')) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('service unavailable');
      return;
    }
    serveCgi(root, url, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('gitHttpPort', (server.address() as AddressInfo).port);
  project.provide('gitHttpFixtures', { sample, moving, history });

  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const repo of work) repo.remove();
    rmSync(root, { recursive: true, force: true });
  };
}

function serveCgi(root: string, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const legacy = url.pathname.startsWith('/v1/');
  const pathInfo = decodeURIComponent(legacy ? url.pathname.slice('/v1'.length) : url.pathname);
  serveWithHttpBackend({ projectRoot: root, pathInfo, query: url.search.slice(1), env: gitEnv(), legacyProtocol: legacy }, req, res);
}
