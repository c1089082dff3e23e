/**
 * @module tasks/open-source
 * Which repository source serves a task: `owner/name` goes through the GitHub API (as the App
 * installation the task names, else with GITHUB_TOKEN); an http(s) URL goes through
 * the git source's own smart-HTTP client (sources/git/remote-source). Trees, blobs and skill indexes are cached in KV by commit and
 * object id, inside the scope of the credential that read them (see scoped-store), written behind
 * the reads (sources/write-behind: `settled` is when they are all done). A GitHub repository also
 * gets the `github:api` reads (pull request files), as the same credential.
 */
import type { Config } from '../env.ts';
import { createCachedLoader } from '../sources/cached-loader.ts';
import { readAheadsAhead } from '../sources/cached-read-aheads.ts';
import { createRemoteGitSource } from '../sources/git/remote-source.ts';
import { parseRemoteUrl } from '../sources/git/remote-url.ts';
import { tokenAuth, type GitHubAuth } from '../sources/github/auth.ts';
import { createGitHubApi } from '../sources/github/pull-request-files.ts';
import { createGitHubSource } from '../sources/github/source.ts';
import { createUsageMeter } from '../sources/github/usage-meter.ts';
import type { GitHubUsage } from '../sources/github/usage.ts';
import { sha256Hex } from '../lib/sha256.ts';
import type { KeyValueStore } from '../sources/key-value-store.ts';
import type { CommitChecksApi } from '../sources/commit-checks.ts';
import type { GitHubApi } from '../sources/pull-requests.ts';
import { scopeStore } from '../sources/scoped-store.ts';
import { writeBehind } from '../sources/write-behind.ts';
import type { RepositorySource } from '../sources/snapshot.ts';
import { PermanentAssemblyError } from './errors.ts';
import { installationAuthFor } from './github-app.ts';
import type { TokenAhead } from './token-ahead.ts';
import { hostAllowed, isGitUrl, isLocalRepo, type TaskRequest } from './task-request.ts';
import { parseFullName } from '../sources/github/repo-name.ts';

export interface OpenSourceDeps {
  config: Config;
  fetch: typeof fetch;
  cache?: KeyValueStore;
  /** Where App installation tokens are shared across isolates (the `TENANTS` namespace). */
  tokens?: KeyValueStore;
  /**
   * Start no cache write before `settled` is asked (sources/write-behind `hold`): for an assembly,
   * whose host always asks once its turn is stored and reported. Any other reader writes as it reads.
   */
  holdWrites?: boolean;
  /** The installation token's exchange begun for this task's request before its assembly opened it (tasks/token-ahead). */
  ahead?: TokenAhead | undefined;
  /**
   * When to begin reading a pull request's base's cached read-aheads (its plan is made after its
   * files are listed); at once without it. The Task object's assembly begins it once its next
   * GitHub request is out, which a read begun before it held back on local workerd's one thread.
   */
  readAheadsAfter?: () => Promise<void>;
}

export interface OpenedSource {
  source: RepositorySource;
  /** The cache for this task's reads, scoped to the credential that reads the repository. */
  cache?: KeyValueStore;
  /** Resolves once every cache write of this task's reads so far is done (they do not hold the reads up), or at `deadlineMs`. */
  settled?: (options?: { deadlineMs?: number }) => Promise<void>;
  /** What this task's GitHub reads have cost so far (GitHub sources only). */
  usage?: () => GitHubUsage;
  /** GitHub reads for `owner/name` repositories (the `github:api` capability); none for git URLs. */
  github?: GitHubApi;
  /** The same repository's check runs, statuses and reviews, for the read-back before an action; none for git URLs. */
  checks?: CommitChecksApi & Pick<GitHubApi, 'pullRequest'>;
}

export async function openTaskSource(request: Pick<TaskRequest, 'repo' | 'githubInstallationId' | 'baseCommit'>, deps: OpenSourceDeps): Promise<OpenedSource> {
  const hold = { hold: deps.holdWrites === true };
  const behind = deps.cache && writeBehind(deps.cache, hold);
  const tokens = deps.ahead?.tokens ?? (deps.tokens && writeBehind(deps.tokens, hold));
  const opened = await openSource(request, { ...deps, ...(behind ? { cache: behind } : {}), ...(tokens ? { tokens } : {}) });
  if (!behind && !tokens) return opened;
  return { ...opened, settled: async (options) => void (await Promise.all([behind?.settled(options), tokens?.settled(options)])) };
}

async function openSource(request: Pick<TaskRequest, 'repo' | 'githubInstallationId' | 'baseCommit'>, deps: OpenSourceDeps): Promise<OpenedSource> {
  const { config } = deps;
  if (isLocalRepo(request.repo)) {
    const served = config.LOCAL_REPOSITORIES[request.repo];
    if (served === undefined) throw new PermanentAssemblyError(`${request.repo} is not served by this instance (LOCAL_REPOSITORIES)`);
    // Named by its path, as `groundwork context` names it, so labels and cache keys survive a new port.
    const cache = deps.cache ? scopeStore(deps.cache, `local:${await sha256Hex(request.repo)}`) : undefined;
    const source = createRemoteGitSource(served, {
      identity: request.repo,
      fetch: deps.fetch,
      maxFetchBytes: config.GIT_MAX_FETCH_BYTES,
      capSetting: 'GIT_MAX_FETCH_BYTES',
      // Served from this machine's disk: a fetch that failed will fail again, so the task fails at once.
      failuresArePermanent: true,
      ...(cache ? { cache: { store: cache } } : {}),
    });
    return { source, ...(cache ? { cache } : {}) };
  }
  if (isGitUrl(request.repo)) {
    // Checked at creation; a task stored before that fails here once instead of being retried.
    const parsed = parseRemoteUrl(request.repo);
    if (!parsed.ok) throw new PermanentAssemblyError(parsed.reason);
    const cache = deps.cache ? scopeStore(deps.cache, `git:${await sha256Hex(gitCredentials(request.repo))}`) : undefined;
    const allowed = config.GIT_ALLOWED_HOSTS;
    const source = createRemoteGitSource(request.repo, {
      fetch: deps.fetch,
      ...(allowed.length > 0 ? { refuse: (url: URL) => (hostAllowed(url.hostname, allowed) ? undefined : `${url.hostname} is not an allowed git host (GIT_ALLOWED_HOSTS)`) } : {}),
      maxFetchBytes: config.GIT_MAX_FETCH_BYTES,
      capSetting: 'GIT_MAX_FETCH_BYTES',
      ...(cache ? { cache: { store: cache } } : {}),
    });
    return { source, ...(cache ? { cache } : {}) };
  }
  // Tasks stored before names were checked at creation fail here, once, instead of retrying.
  const name = parseFullName(request.repo);
  if (!name.ok) throw new PermanentAssemblyError(`repo ${request.repo}: ${name.reason}`);
  const { owner, name: repo } = name;
  const { auth, scope } = await githubAuthFor(request.githubInstallationId, deps);
  // The exchange begun ahead for this request (tasks/token-ahead), which this source's clients join.
  if (deps.ahead && auth.kind === 'app-installation') auth.tokens.ahead = deps.ahead.exchange;
  const cache = deps.cache ? scopeStore(deps.cache, scope) : undefined;
  const meter = deps.ahead?.meter ?? createUsageMeter();
  const client = { owner, repo, auth, baseUrl: config.GITHUB_API_URL, fetch: deps.fetch, meter };
  // A pull request's base is known before its plan (the changed files are listed first): the
  // base's cached read-aheads are read meanwhile, not after the listing (issue 56).
  const base = request.baseCommit;
  const reads = cache && base ? readAheadsAhead(cache) : undefined;
  const source = createGitHubSource({
    ...client,
    reads: config.GITHUB_READS,
    rateLimitFloor: config.GITHUB_RATE_LIMIT_FLOOR,
    ...(cache
      ? {
          wrapLoader: (loader, at) => {
            const readAheads = reads?.take(at);
            return createCachedLoader(loader, cache, at, readAheads ? { readAheads } : {});
          },
        }
      : {}),
  });
  if (reads && base) {
    const at = { repository: source.repository, commit: base };
    if (deps.readAheadsAfter) void deps.readAheadsAfter().then(() => reads.start(at));
    else reads.start(at);
  }
  const github = createGitHubApi(client);
  return { source, github, checks: github, usage: () => meter.read(), ...(cache ? { cache } : {}) };
}

/** The userinfo of a git URL (empty for anonymous access); only its hash is ever kept. */
function gitCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.username}:${parsed.password}`;
  } catch {
    return '';
  }
}

/** The credential a GitHub read uses, and the cache scope that credential's reads share. */
async function githubAuthFor(installation: number | undefined, { config, tokens }: OpenSourceDeps): Promise<{ auth: GitHubAuth; scope: string }> {
  const app = installation === undefined ? undefined : installationAuthFor(config, installation, tokens);
  if (app) return app;
  if (config.GITHUB_TOKEN) return { auth: tokenAuth(config.GITHUB_TOKEN), scope: `github-token:${await sha256Hex(config.GITHUB_TOKEN)}` };
  throw new PermanentAssemblyError(
    installation
      ? 'GitHub App credentials are not configured: set GITHUB_APP_CLIENT_ID (or GITHUB_APP_ID) and GITHUB_APP_PRIVATE_KEY'
      : 'no GitHub credentials for owner/name repositories: set GITHUB_TOKEN (or use a git URL)',
  );
}
