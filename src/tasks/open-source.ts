/**
 * @module tasks/open-source
 * Which repository source serves a task: `owner/name` goes through the GitHub API (as the App
 * installation the task names, else with GITHUB_TOKEN); an http(s) URL goes through
 * isomorphic-git over smart HTTP. Trees and blobs are cached in KV by commit and object id.
 */
import type { Config } from '../env.ts';
import { createCachedLoader } from '../sources/cached-loader.ts';
import { createRemoteGitSource } from '../sources/git/remote-source.ts';
import { createAppAuth, tokenAuth, type GitHubAuth } from '../sources/github/auth.ts';
import { createGitHubSource } from '../sources/github/source.ts';
import type { KeyValueStore } from '../sources/key-value-store.ts';
import type { RepositorySource } from '../sources/snapshot.ts';
import { PermanentAssemblyError } from './errors.ts';
import type { TaskRequest } from './task-request.ts';

export interface OpenSourceDeps {
  config: Config;
  fetch: typeof fetch;
  cache?: KeyValueStore;
}

export function openTaskSource(request: Pick<TaskRequest, 'repo' | 'githubInstallationId'>, deps: OpenSourceDeps): RepositorySource {
  const { config, cache } = deps;
  if (/^https?:\/\//i.test(request.repo)) {
    return createRemoteGitSource(request.repo, {
      fetch: deps.fetch,
      maxFetchBytes: config.GIT_MAX_FETCH_BYTES,
      capSetting: 'GIT_MAX_FETCH_BYTES',
      ...(cache ? { cache: { store: cache } } : {}),
    });
  }
  const [owner = '', repo = ''] = request.repo.split('/');
  return createGitHubSource({
    owner,
    repo,
    auth: githubAuthFor(request.githubInstallationId, config),
    baseUrl: config.GITHUB_API_URL,
    fetch: deps.fetch,
    ...(cache ? { wrapLoader: (loader, scope) => createCachedLoader(loader, cache, scope) } : {}),
  });
}

/** One App auth per installation per isolate, so its installation token is reused across tasks. */
const appAuths = new Map<string, GitHubAuth>();

function githubAuthFor(installation: number | undefined, config: Config): GitHubAuth {
  if (installation !== undefined && config.GITHUB_APP_ID && config.GITHUB_APP_PRIVATE_KEY) {
    const key = `${config.GITHUB_API_URL} ${config.GITHUB_APP_ID} ${installation}`;
    let auth = appAuths.get(key);
    if (!auth) {
      auth = createAppAuth({ appId: config.GITHUB_APP_ID, privateKey: config.GITHUB_APP_PRIVATE_KEY, installationId: installation });
      appAuths.set(key, auth);
    }
    return auth;
  }
  if (config.GITHUB_TOKEN) return tokenAuth(config.GITHUB_TOKEN);
  throw new PermanentAssemblyError(
    installation
      ? 'GitHub App credentials are not configured: set GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY'
      : 'no GitHub credentials for owner/name repositories: set GITHUB_TOKEN (or use a git URL)',
  );
}
