/**
 * @module inspector/links
 * Where the inspector links to: a GitHub repository's commit and file pages (on github.com or
 * the Enterprise host `GITHUB_API_URL` names), or a git URL's identity (git hosts have no
 * standard page per file). Only http(s) URLs ever become links.
 */
import { blobUrl, githubLocation } from '../sources/github/location.ts';
import { parseFullName } from '../sources/github/repo-name.ts';
import { isGitUrl } from '../tasks/task-request.ts';

export interface RepositoryLinks {
  repository?: string | undefined;
  commit(sha: string): string | undefined;
  file(path: string, sha: string): string | undefined;
}

/** `url` when it is an http(s) URL, else undefined: nothing else is ever put in an href. */
export function safeHref(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @example
 * repositoryLinks('acme/widgets', 'https://api.github.com').file('AGENTS.md', sha)
 * // 'https://github.com/acme/widgets/blob/<sha>/AGENTS.md'
 */
export function repositoryLinks(repo: string, githubApiUrl: string): RepositoryLinks {
  if (isGitUrl(repo)) {
    const href = safeHref(repo);
    return { repository: href, commit: () => undefined, file: () => href };
  }
  const name = parseFullName(repo);
  if (!name.ok) return { commit: () => undefined, file: () => undefined };
  const { htmlUrl } = githubLocation(githubApiUrl, name.owner, name.name);
  return {
    repository: safeHref(htmlUrl),
    commit: (sha) => safeHref(`${htmlUrl}/commit/${sha}`),
    file: (path, sha) => safeHref(blobUrl(htmlUrl, sha, path)),
  };
}
