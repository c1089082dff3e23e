/**
 * @module test/setup/git-http-server
 * Vitest global setup: real repositories served over smart HTTP by `git http-backend` (as CGI,
 * behind a small Node server on 127.0.0.1), so workerd tests fetch from a genuine git server.
 *
 * Repositories: `sample.git` (see buildSampleRepo), `moving.git` (advanced on demand by
 * `POST /_control/moving.git/advance`), `history.git` (a large incompressible blob added,
 * then deleted), `deep.git` (rules under a path longer than an entry title), `opencode.git` and
 * `configured.git` (see buildSettingsRepos), `hostile.git` (see buildHostileRepo), `deltas.git`
 * (delta chains made by `git repack`, see buildDeltaRepo), and fresh ones
 * a test makes and pushes to (`POST /_control/repos`, then `POST /_control/<name>/commit`; see
 * git-repo-control). Under `/v1/` the same repositories are served as by a server that predates
 * protocol v2. Anything under `/_unavailable/` answers 503, as a git host that is down,
 * `/_silent/` never answers, `/_drip/` answers and then never finishes, and `/_redirect/<host>/…`
 * redirects to `<host>` on this server's port. Under `/_silent-pack/` and `/_drip-pack/` the refs
 * are listed as usual but the pack (any POST to `git-upload-pack`) never comes, or never finishes
 * coming. `/_slow/…` serves the same repositories only after `SLOW_MS` (or never, if the client
 * gives up first), as a host too slow for any provider's timeout.
 *
 * A second server (`gitHttpMirrorPort`) serves the same repositories on another port, so a
 * redirect can change origin between two real servers. On both, `/_to/<host:port>/…` answers
 * 307 to the same path on `<host:port>`, and `/_tag/<tag>/…` is served as `…` while the request
 * (server, path, Authorization header, whether the server holds it unfinished on purpose, whether
 * its connection has closed) is recorded under `<tag>`; `GET /_control/seen/<tag>` lists what was
 * recorded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { serveWithHttpBackend } from '../../src/cli/run/git-http-backend.ts';
import { buildDeltaRepo, type DeltaFixture } from '../support/delta-repo.ts';
import { buildHostileRepo } from '../support/hostile-repo.ts';
import { buildSampleRepo, buildSettingsRepos, cloneBare, createGitRepo, gitEnv, incompressibleBytes, type GitFixture } from '../support/git-fixtures.ts';
import { repoControl } from '../support/git-repo-control.ts';

/** One request a server saw under a `/_tag/<tag>/` prefix. */
export interface SeenRequest {
  server: 'primary' | 'mirror';
  method: string;
  path: string;
  authorization: string | null;
  /**
   * Whether the server took the request to never finish it (`/_silent/`, `/_drip/`, the pack under
   * `/_silent-pack/` and `/_drip-pack/`): a client is then waiting on it, in whatever step needed it.
   */
  held: boolean;
  /** Whether the connection has closed: answered in full, or hung up on by the client. */
  closed: boolean;
}

/**
 * Longer than every provider's timeout (5 s), so a provider that fetched the pack itself would give
 * up on it; two of them (refs, pack) still fit one assembly attempt (15 s).
 */
const SLOW_MS = 5_500;

export interface GitHttpFixtures {
  /** `headCommittedAt`: the tip's committer date as git records it, in ISO 8601 UTC. */
  sample: { first: string; head: string; headCommittedAt: string };
  moving: { head: string };
  /** `big` added a 1 MiB incompressible blob; `small` (its child, the tip) deleted it. */
  history: { big: string; small: string; bigBytes: number };
  /** A root AGENTS.md and one in `cwd`, a directory whose path is longer than an entry title may be. */
  deep: { head: string; cwd: string };
  /** Skills in `.opencode/skills` only, and no settings file. */
  opencode: { head: string };
  /** A `.groundwork.yml` naming GEMINI.md and `tools/skills/*`, with skills in `.agents/skills` too. */
  configured: { head: string };
  /** Text that tries to break out of the inspector's markup (see hostile-repo.ts). */
  hostile: { head: string };
  /** Similar files stored as delta chains by `git repack` (see delta-repo.ts). */
  deltas: DeltaFixture;
}

declare module 'vitest' {
  export interface ProvidedContext {
    gitHttpPort: number;
    gitHttpMirrorPort: number;
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
  const sampleCommits = buildSampleRepo(sampleWork);
  const sample = { ...sampleCommits, headCommittedAt: new Date(Number(sampleWork.git('log', '-1', '--format=%ct')) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
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

  const opencodeWork = fresh();
  const configuredWork = fresh();
  const settings = buildSettingsRepos(opencodeWork, configuredWork);
  cloneBare(opencodeWork, root, 'opencode.git');
  cloneBare(configuredWork, root, 'configured.git');

  const hostileWork = fresh();
  const hostile = buildHostileRepo(hostileWork);
  cloneBare(hostileWork, root, 'hostile.git');

  const deltas = buildDeltaRepo(fresh(), root);


  const control = repoControl(root);
  const seen = new Map<string, SeenRequest[]>();
  const handle = (name: SeenRequest['server'], port: () => number) => (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (control.handle(url.pathname, req, res)) return;
    if (req.method === 'POST' && url.pathname === '/_control/moving.git/advance') {
      movingWork.write('AGENTS.md', `version ${Date.now()}\n`);
      const head = movingWork.commitAll('advance');
      movingWork.git('push', '--quiet', 'origin', 'main');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ head }));
      return;
    }
    const seenTag = /^\/_control\/seen\/([^/]+)$/.exec(url.pathname);
    if (seenTag?.[1] !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen.get(seenTag[1]) ?? []));
      return;
    }
    const tagged = /^\/_tag\/([^/]+)(\/.*)$/.exec(url.pathname);
    let request: SeenRequest | undefined;
    if (tagged?.[1] !== undefined && tagged[2] !== undefined) {
      const list = seen.get(tagged[1]) ?? [];
      request = { server: name, method: req.method ?? '', path: tagged[2], authorization: req.headers.authorization ?? null, held: false, closed: false };
      const recorded = request;
      res.on('close', () => (recorded.closed = true));
      list.push(request);
      seen.set(tagged[1], list);
      url.pathname = tagged[2];
      req.url = `${url.pathname}${url.search}`;
    }
    // `/_to/<host:port>/<path>` answers 307 (method and body kept) to the same path on another origin.
    const to = /^\/_to\/([^/]+)(\/.*)$/.exec(url.pathname);
    if (to) {
      res.writeHead(307, { location: `http://${to[1]}${to[2]}${url.search}` }).end();
      return;
    }
    // `/_redirect/<host>/<path>` answers 302 to the same path on another host name of this server.
    const redirect = /^\/_redirect\/([^/]+)(\/.*)$/.exec(url.pathname);
    if (redirect) {
      res.writeHead(302, { location: `http://${redirect[1]}:${port()}${redirect[2]}${url.search}` }).end();
      return;
    }
    // A git host that is down: every request under it fails with 503, which callers should retry.
    if (url.pathname.startsWith('/_unavailable/')) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('service unavailable');
      return;
    }
    const slow = /^\/_slow(\/.*)$/.exec(url.pathname);
    if (slow) {
      const timer = setTimeout(() => serveCgi(root, new URL(`${slow[1]}${url.search}`, url), req, res), SLOW_MS);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    // A git host that takes the request and never answers.
    const hold = () => {
      if (request) request.held = true;
    };
    if (url.pathname.startsWith('/_silent/')) return hold();
    if (url.pathname.startsWith('/_drip/')) {
      hold();
      return drip(res, 'application/x-git-upload-pack-advertisement');
    }
    // A git host that lists its refs and then never sends the pack, or sends it a byte at a time.
    const pack = /^\/_(silent|drip)-pack(\/.*)$/.exec(url.pathname);
    if (pack?.[2] !== undefined) {
      if (req.method === 'POST') {
        hold();
        return pack[1] === 'drip' ? drip(res, 'application/x-git-upload-pack-result') : undefined;
      }
      url.pathname = pack[2];
    }
    serveCgi(root, url, req, res);
  };
  const server: Server = createServer(handle('primary', (): number => (server.address() as AddressInfo).port));
  const mirror: Server = createServer(handle('mirror', (): number => (mirror.address() as AddressInfo).port));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
  project.provide('gitHttpPort', (server.address() as AddressInfo).port);
  project.provide('gitHttpMirrorPort', (mirror.address() as AddressInfo).port);
  project.provide('gitHttpFixtures', { sample, moving, history, deep, ...settings, hostile, deltas });

  return async () => {
    // Silent and dripping requests hold their connections open until told otherwise.
    server.closeAllConnections();
    mirror.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    control.close();
    await new Promise<void>((resolve) => mirror.close(() => resolve()));
    for (const repo of work) repo.remove();
    rmSync(root, { recursive: true, force: true });
  };
}

/**
 * Answers at once and then drips: a pkt-line announcing 65,520 bytes, then one byte every 50 ms,
 * so data keeps arriving but the response never completes.
 */
function drip(res: ServerResponse, contentType: string): void {
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
  res.write('fff0');
  const timer = setInterval(() => res.write('a'), 50);
  res.on('close', () => clearInterval(timer));
}

function serveCgi(root: string, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const legacy = url.pathname.startsWith('/v1/');
  const pathInfo = decodeURIComponent(legacy ? url.pathname.slice('/v1'.length) : url.pathname);
  serveWithHttpBackend({ projectRoot: root, pathInfo, query: url.search.slice(1), env: gitEnv(), legacyProtocol: legacy }, req, res);
}
