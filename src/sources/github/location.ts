/**
 * @module sources/github/location
 * Where a repository lives: its stable identity (host included, so a GitHub Enterprise Server
 * repository never shares cache keys with a github.com one) and its human web links.
 */

export interface GitHubLocation {
  /** `github:<host>/<owner>/<name>`, e.g. `github:github.com/acme/widgets`. */
  repository: string;
  /** Web root of the repository, e.g. `https://github.com/acme/widgets`. */
  htmlUrl: string;
}

/**
 * Derives the web host from the API base URL: api.github.com -> github.com,
 * `api.<tenant>.ghe.com` -> `<tenant>.ghe.com`, GHES `https://host/api/v3` -> `https://host`.
 *
 * @example
 * githubLocation('https://ghe.example.com/api/v3', 'acme', 'widgets')
 * // { repository: 'github:ghe.example.com/acme/widgets', htmlUrl: 'https://ghe.example.com/acme/widgets' }
 */
export function githubLocation(baseUrl: string, owner: string, repo: string): GitHubLocation {
  const web = githubWebRoot(baseUrl);
  return {
    repository: `github:${new URL(web).host}/${owner}/${repo}`,
    htmlUrl: `${web}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`,
  };
}

/** The web root repositories live under, without a trailing slash: `https://github.com`, `https://ghe.example.com`. */
export function githubWebRoot(baseUrl: string): string {
  const api = new URL(baseUrl);
  let host = api.host;
  if (host === 'api.github.com') host = 'github.com';
  else if (/^api\.[^.]+\.ghe\.com$/.test(host)) host = host.slice('api.'.length);
  const path = api.pathname.replace(/\/+$/, '').replace(/\/api\/v3$/, '');
  return `${api.protocol}//${host}${path}`;
}

/** Link to a path at a commit; the root links to the tree view. */
export function blobUrl(htmlUrl: string, commit: string, path: string): string {
  if (path === '') return `${htmlUrl}/tree/${commit}`;
  return `${htmlUrl}/blob/${commit}/${path.split('/').map(encodeURIComponent).join('/')}`;
}
