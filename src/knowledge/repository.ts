/**
 * @module knowledge/repository
 * The one name a repository's knowledge is kept under, however a caller names it: `owner/name`,
 * or a git URL with or without credentials, a trailing slash or `.git`. A URL under the GitHub
 * web root this deployment reads through (from GITHUB_API_URL) is the same repository as its
 * `owner/name`, and GitHub compares those case-insensitively. The forms are the identities the
 * sources use (`github:<host>/<owner>/<name>`, a git URL without credentials), so a knowledge
 * object names its repository in the words a task's `repository` uses.
 *
 * @example
 * canonicalRepository('Acme/Widgets', 'https://api.github.com')                                // 'github:github.com/acme/widgets'
 * canonicalRepository('https://x:tok@github.com/acme/widgets.git', 'https://api.github.com')   // 'github:github.com/acme/widgets'
 * canonicalRepository('https://git.example.com/team/app.git/', 'https://api.github.com')      // 'https://git.example.com/team/app'
 */
import { parseRemoteUrl } from '../sources/git/remote-url.ts';
import { githubLocation, githubWebRoot } from '../sources/github/location.ts';

export type CanonicalRepository = { ok: true; repository: string } | { ok: false; reason: string };

export function canonicalRepository(repo: string, githubApiUrl: string): CanonicalRepository {
  if (!/^https?:\/\//i.test(repo)) {
    const [owner = '', name = ''] = repo.split('/');
    return { ok: true, repository: githubIdentity(githubApiUrl, owner, name) };
  }
  const parsed = parseRemoteUrl(repo);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  const identity = parsed.identity.replace(/\.git$/i, '');
  const root = githubWebRoot(githubApiUrl);
  if (identity.toLowerCase().startsWith(`${root.toLowerCase()}/`)) {
    const parts = identity.slice(root.length + 1).split('/');
    const [owner, name] = parts;
    if (parts.length === 2 && owner && name) return { ok: true, repository: githubIdentity(githubApiUrl, owner, name) };
  }
  return { ok: true, repository: identity };
}

function githubIdentity(githubApiUrl: string, owner: string, name: string): string {
  return githubLocation(githubApiUrl, owner.toLowerCase(), name.replace(/\.git$/i, '').toLowerCase()).repository;
}
