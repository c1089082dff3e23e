/**
 * @module test/support/github-api-server
 * A local HTTP server that speaks the parts of the GitHub REST API the GitHub source and the
 * triggers use (installation tokens here; repository routes in github-api-repo), answering from
 * a real git repository. Requests under `/s/<scope>/` are recorded per scope, and a scope can
 * script failures (or requests it never answers, or answers a byte at a time), tree truncation,
 * token lifetimes and latency, so tests running in parallel never see each other's traffic.
 * `POST /__git/commit` commits onto a branch mid-test (making it from another first, if asked);
 * `POST /__github/pulls` makes a pull request, `POST /__github/pulls/<n>` closes, merges or
 * reviews it, and `POST /__github/checks/<sha>` sets the check runs and statuses of a commit
 * (see github-api-checks). GitHub's user authorization of the App and its people (`/login/oauth/…`,
 * `GET /user`, a repository's permissions for a user) are in github-api-users.
 */
import { randomBytes, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { RecordedRequest, ScopeConfig } from './github-api-client.ts';
import { CommitChecksFixtureSchema, NewPullSchema, PullStateSchema } from './github-api-checks.ts';
import { repoRoutes } from './github-api-repo.ts';
import type { PullFixture } from './github-api-repo.ts';
import { createScopes, faultFor, scopeStats, spendRateLimit } from './github-api-scope.ts';
import { BLOB_TEXT_LIMIT, graphqlEndpoint } from './github-graphql.ts';
import type { Answer, Scope } from './github-api-scope.ts';
import { gitObjects } from './git-objects.ts';
import { commitToBranch } from './git-branch-commit.ts';
import { FailSchema, NewUserSchema, PermissionSchema, usersApi } from './github-api-users.ts';

const BranchCommit = z.object({
  branch: z.string().regex(/^[\w.-]+$/),
  /** Where a branch that does not exist yet starts. */
  from: z.string().regex(/^[\w.-]+$/).optional(),
  files: z.record(z.string().min(1), z.string().nullable()),
});

export interface GitHubApiServerOptions {
  repoDir: string;
  owner: string;
  repo: string;
  appId: string;
  /** The App's Client ID, which GitHub accepts as the JWT issuer as well as the App ID. */
  appClientId?: string;
  /** The App's client secret, for user authorization (github-api-users); without it no user can sign in. */
  appClientSecret?: string;
  installationId: number;
  appPublicKeyPem: string;
  personalToken: string;
  /** Pull requests `GET /repos/{o}/{r}/pulls/{n}` answers for; none by default. */
  pulls?: PullFixture[];
}

export async function startGitHubApiServer(options: GitHubApiServerOptions): Promise<{ port: number; close(): Promise<void> }> {
  const scopeNamed = createScopes();
  const tokens = new Map<string, number>([[options.personalToken, Number.POSITIVE_INFINITY]]);
  /** Installation tokens by the scope that minted them, so a test can revoke its own. */
  const minted = new Map<Scope, string[]>();
  const objects = gitObjects(options.repoDir);
  // Spawning git per request blocks this thread long enough to skew round-trip timing.
  await objects.preloadBlobs();
  const repoApi = repoRoutes(objects, { owner: options.owner, repo: options.repo, ...(options.pulls ? { pulls: options.pulls } : {}) });
  const graphqlApi = graphqlEndpoint(objects, { owner: options.owner, repo: options.repo });
  const notFound: Answer = { status: 404, body: { message: 'Not Found' } };
  const users = usersApi({
    appClientId: options.appClientId ?? options.appId,
    appClientSecret: options.appClientSecret ?? randomBytes(16).toString('hex'),
    installationId: options.installationId,
    installationAccount: options.owner,
  });

  const authorised = (req: IncomingMessage): boolean => {
    const token = /^(?:bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    return token !== undefined && (tokens.get(token) ?? 0) > Date.now();
  };

  const api = async (req: IncomingMessage, path: string, url: URL, body: string, scope: Scope): Promise<Answer> => {
    const userAnswer = users.answer({ method: req.method ?? 'GET', path, url, headers: req.headers, body });
    if (userAnswer) return userAnswer;
    const tokenRoute = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
    if (tokenRoute && req.method === 'POST') {
      if (!verifyAppJwt(req.headers.authorization, options)) return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      if (Number(tokenRoute[1]) !== options.installationId) return notFound;
      const token = `ghs_${randomBytes(16).toString('hex')}`;
      const expiresAt = Date.now() + (scope.config.tokenTtlSeconds ?? 3600) * 1000;
      tokens.set(token, expiresAt);
      minted.set(scope, [...(minted.get(scope) ?? []), token]);
      return { status: 201, body: { token, expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z') } };
    }
    if (path === '/graphql' && req.method === 'POST') {
      if (!authorised(req)) return { status: 401, body: { message: 'Bad credentials' } };
      const spent = spendRateLimit(scope, 'graphql');
      let request: { query?: unknown; variables?: unknown };
      try {
        request = JSON.parse(body) as { query?: unknown; variables?: unknown };
      } catch {
        return { status: 400, body: { message: 'Problems parsing JSON' }, headers: spent.headers };
      }
      if (typeof request.query !== 'string') return { status: 200, body: { errors: [{ message: 'A query attribute must be specified' }] }, headers: spent.headers };
      const answer = await graphqlApi({
        query: request.query,
        variables: typeof request.variables === 'object' && request.variables !== null ? (request.variables as Record<string, unknown>) : {},
        schema: scope.config.graphqlSchema ?? 'current',
        textLimit: scope.config.graphqlTextLimit ?? BLOB_TEXT_LIMIT,
        rateLimit: { cost: 1, limit: 5000, remaining: spent.remaining, used: spent.used, resetAt: new Date(spent.resetAt * 1000).toISOString() },
      });
      return { status: 200, body: answer, headers: spent.headers };
    }
    const repoRoute = /^\/repos\/([^/]+)\/([^/]+)\/(.+)$/.exec(path);
    if (!repoRoute) return notFound;
    if (!authorised(req)) return { status: 401, body: { message: 'Bad credentials' } };
    const [, owner, repo, rest = ''] = repoRoute;
    if (owner !== options.owner || repo !== options.repo) return notFound;
    const spent = spendRateLimit(scope, 'core');
    const self = new URL(url.pathname + url.search, `http://${req.headers.host ?? '127.0.0.1'}`);
    const answer = await repoApi.answer({ method: req.method ?? 'GET', rest, query: url.searchParams, accept: req.headers.accept ?? '', body, scope, self });
    return { ...answer, headers: { ...spent.headers, ...answer.headers } };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Moves a branch of the served repository (the pull request fixtures resolve their branches live).
    if (url.pathname === '/__git/commit' && req.method === 'POST') {
      const { branch, from, files } = BranchCommit.parse(JSON.parse(await readBody(req)));
      return send(res, { status: 200, body: { head: commitToBranch(options.repoDir, branch, files, 'change', from) } });
    }
    // The people of this GitHub: a test's own users, what they may do, their revoked authorizations.
    const person = /^\/__github\/users(?:\/([A-Za-z0-9-]+)\/(access|revoke|fail|expire))?$/.exec(url.pathname);
    if (person && req.method === 'POST') {
      const body: unknown = JSON.parse((await readBody(req)) || '{}');
      if (person[1] === undefined) return send(res, { status: 201, body: users.create(NewUserSchema.parse(body)) });
      const done =
        person[2] === 'revoke' ? users.revoke(person[1]) : person[2] === 'expire' ? users.expire(person[1]) : person[2] === 'fail' ? users.fail(person[1], FailSchema.parse(body)) : users.setAccess(person[1], z.record(z.string(), PermissionSchema).parse(body));
      return send(res, done ? { status: 204, body: '' } : notFound);
    }
    const fixture = /^\/__github\/(pulls|checks)(?:\/([0-9a-f]{40}|\d+))?$/.exec(url.pathname);
    if (fixture && req.method === 'POST') {
      const body: unknown = JSON.parse(await readBody(req));
      if (fixture[1] === 'checks' && fixture[2]) {
        repoApi.setChecks(fixture[2], CommitChecksFixtureSchema.parse(body));
        return send(res, { status: 204, body: '' });
      }
      if (fixture[2] === undefined) return send(res, { status: 201, body: { number: repoApi.addPull(NewPullSchema.parse(body)) } });
      return send(res, repoApi.updatePull(Number(fixture[2]), PullStateSchema.parse(body)) ? { status: 204, body: '' } : notFound);
    }
    const control = /^\/__(control|stats|revoke)\/([\w-]+)$/.exec(url.pathname);
    if (control) {
      const scope = scopeNamed(control[2] ?? '');
      if (control[1] === 'stats') return send(res, { status: 200, body: scopeStats(scope) });
      if (control[1] === 'revoke') {
        for (const token of minted.get(scope) ?? []) tokens.delete(token);
        return send(res, { status: 204, body: '' });
      }
      scope.config = { ...scope.config, ...(JSON.parse(await readBody(req)) as ScopeConfig) };
      return send(res, { status: 204, body: '' });
    }
    const scoped = /^\/s\/([\w-]+)(\/.*)$/.exec(url.pathname);
    const scope = scopeNamed(scoped?.[1] ?? 'default');
    const path = scoped?.[2] ?? url.pathname;
    const record: RecordedRequest = { method: req.method ?? 'GET', path: path + url.search, status: 0, startedAt: performance.now(), endedAt: 0 };
    scope.requests.push(record);
    const body = await readBody(req);
    const answer = faultFor(scope, path) ?? (await api(req, path, url, body, scope));
    if (answer.stall || answer.drip) {
      record.abandoned = false;
      res.on('close', () => (record.abandoned = true));
      return answer.drip ? drip(res) : undefined;
    }
    if (scope.config.latencyMs) await new Promise((resolve) => setTimeout(resolve, scope.config.latencyMs));
    record.status = answer.status;
    res.on('finish', () => (record.endedAt = performance.now()));
    send(res, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, { status: 500, body: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      // Stalled requests hold their connections open until told otherwise.
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function verifyAppJwt(header: string | undefined, options: GitHubApiServerOptions): boolean {
  const jwt = /^bearer (.+)$/i.exec(header ?? '')?.[1];
  const [head, payload, signature] = jwt?.split('.') ?? [];
  if (!head || !payload || !signature) return false;
  const signed = verify('sha256', Buffer.from(`${head}.${payload}`), options.appPublicKeyPem, Buffer.from(signature, 'base64url'));
  if (!signed) return false;
  const decode = (part: string): Record<string, unknown> => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  const claims = decode(payload);
  const now = Date.now() / 1000;
  return (
    decode(head).alg === 'RS256' &&
    (claims.iss === options.appId || (options.appClientId !== undefined && claims.iss === options.appClientId)) &&
    typeof claims.iat === 'number' && typeof claims.exp === 'number' &&
    claims.iat <= now + 60 && claims.exp > now && claims.exp - claims.iat <= 600
  );
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** JSON allows leading whitespace, so a client has no reason to give up on it but its own deadline. */
function drip(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.write(' ');
  const timer = setInterval(() => res.write(' '), 50);
  res.on('close', () => clearInterval(timer));
}

function send(res: ServerResponse, answer: Answer): void {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const type = typeof answer.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
  res.writeHead(answer.status, { 'content-type': type, ...answer.headers });
  res.end(answer.status === 204 ? undefined : text);
}
