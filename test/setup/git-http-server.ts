/**
 * @module test/setup/git-http-server
 * Vitest global setup: real repositories served over smart HTTP by `git http-backend` (as CGI,
 * behind a small Node server on 127.0.0.1), so workerd tests fetch from a genuine git server.
 *
 * Repositories: `sample.git` (see buildSampleRepo), `moving.git` (advanced on demand by
 * `POST /_control/moving.git/advance`), `history.git` (a large incompressible blob added,
 * then deleted) and `deep.git` (rules under a path longer than an entry title). Under `/v1/` the same repositories are served as by a server that predates
 * protocol v2. Anything under `/_unavailable/` answers 503, as a git host that is down,
 * `/_silent/` never answers, `/_drip/` answers and then never finishes, and
 * `/_redirect/<host>/…` redirects to `<host>` on this server's port.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSampleRepo, cloneBare, createGitRepo, gitEnv, incompressibleBytes, type GitFixture } from '../support/git-fixtures.ts';

export interface GitHttpFixtures {
  sample: { first: string; head: string };
  moving: { head: string };
  /** `big` added a 1 MiB incompressible blob; `small` (its child, the tip) deleted it. */
  history: { big: string; small: string; bigBytes: number };
  /** A root AGENTS.md and one in `cwd`, a directory whose path is longer than an entry title may be. */
  deep: { head: string; cwd: string };
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

  const deepWork = fresh();
  const deepCwd = Array.from({ length: 4 }, (_, i) => `level-${i}-${'d'.repeat(56)}`).join('/');
  deepWork.write('AGENTS.md', 'Root rules: keep changes small.\n');
  deepWork.write(`${deepCwd}/AGENTS.md`, 'Deep rules: mind the long path.\n');
  const deep = { head: deepWork.commitAll('deep'), cwd: deepCwd };
  cloneBare(deepWork, root, 'deep.git');

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
    // A git host that takes the request and never answers.
    if (url.pathname.startsWith('/_silent/')) return;
    // A git host that answers at once and then drips: a pkt-line announcing 65,520 bytes, then one
    // byte every 50 ms, so data keeps arriving but the response never completes.
    if (url.pathname.startsWith('/_drip/')) {
      res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement', 'cache-control': 'no-cache' });
      res.write('fff0');
      const drip = setInterval(() => res.write('a'), 50);
      res.on('close', () => clearInterval(drip));
      return;
    }
    serveCgi(root, url, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('gitHttpPort', (server.address() as AddressInfo).port);
  project.provide('gitHttpFixtures', { sample, moving, history, deep });

  return async () => {
    // Silent and dripping requests hold their connections open until told otherwise.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const repo of work) repo.remove();
    rmSync(root, { recursive: true, force: true });
  };
}

/** Runs `git http-backend` for one request, translating HTTP to CGI and back. */
function serveCgi(root: string, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const legacy = url.pathname.startsWith('/v1/');
  const env: NodeJS.ProcessEnv = {
    ...gitEnv(),
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(legacy ? url.pathname.slice('/v1'.length) : url.pathname),
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: req.method ?? 'GET',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_ADDR: '127.0.0.1',
    SERVER_PROTOCOL: 'HTTP/1.1',
    // http-backend reads the protocol version from here, as a web server would set it.
    HTTP_GIT_PROTOCOL: legacy ? '' : [req.headers['git-protocol'] ?? ''].flat().join(','),
    ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
  };
  // stderr is dropped: tests probe missing repositories on purpose, and the status says enough.
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    headersSent = true;
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => {
    if (!headersSent) res.writeHead(502).end('http-backend produced no headers');
    else res.end();
  });
}
