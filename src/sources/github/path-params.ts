/**
 * @module sources/github/path-params
 * The last check before Octokit builds a GitHub API path from a route template and its
 * parameters, made on every request of every client. Octokit percent-encodes `/` inside a
 * parameter, but `.` and `..` pass unchanged and the URL then resolves them, so
 * `/repos/{owner}/{repo}/commits/{ref}` with `repo: '..'` would request another route with the
 * host's credential.
 */
import { loginProblem, repoNameProblem } from './repo-name.ts';

const PLACEHOLDER = /\{([A-Za-z_]+)\}/g;

/**
 * Why these request options must not be sent, or undefined when every path parameter is one
 * whole segment (and `owner` and `repo`, when present, are names GitHub could have given).
 *
 * @example
 * pathParamsProblem({ url: '/repos/{owner}/{repo}', owner: 'acme', repo: '..' }) // "repo must be a GitHub repository name, not '..'"
 */
export function pathParamsProblem(options: Readonly<Record<string, unknown>>): string | undefined {
  const { url } = options;
  if (typeof url !== 'string') return undefined;
  for (const [, name = ''] of url.matchAll(PLACEHOLDER)) {
    const value = options[name];
    if (typeof value !== 'string' && typeof value !== 'number') return `path parameter ${name} is missing`;
    const text = String(value);
    if (text === '' || text === '.' || text === '..') return `path parameter ${name} cannot be ${JSON.stringify(text)}`;
  }
  const owner = typeof options['owner'] === 'string' ? loginProblem(options['owner']) : undefined;
  if (owner) return `owner ${owner}`;
  const repo = typeof options['repo'] === 'string' ? repoNameProblem(options['repo']) : undefined;
  return repo ? `repo ${repo}` : undefined;
}
