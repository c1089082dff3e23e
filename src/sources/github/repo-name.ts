/**
 * @module sources/github/repo-name
 * GitHub's rules for account logins and repository names. `owner/name` becomes two segments of
 * API paths requested with a host credential, and a URL resolves `.` and `..` segments, so
 * `acme/..` would request another path than the repository it names. A name GitHub would not
 * give a repository is refused before any request is built.
 *
 * Logins: 1-39 letters, digits and hyphens, not starting with a hyphen (accounts from before
 * GitHub forbade trailing and double hyphens still have them, so those pass); an Enterprise
 * Managed User adds `_<shortcode>`. Repository names: 1-100 ASCII letters, digits, `.`, `-` and
 * `_`; never `.` or `..`; GitHub strips a `.git` suffix and refuses `.wiki`, so neither names a
 * repository.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';

const LOGIN = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}(?:_[A-Za-z0-9]{1,39})?$/;
const REPO_NAME = /^[A-Za-z0-9._-]{1,100}$/;

export const LOGIN_RULE = 'must be a GitHub account: 1-39 letters, digits or hyphens, not starting with a hyphen';
export const REPO_NAME_RULE = "must be a GitHub repository name: 1-100 ASCII letters, digits, '.', '-' or '_'";

/** Why `login` is not a GitHub account name, or undefined when it is one. */
export function loginProblem(login: string): string | undefined {
  return LOGIN.test(login) ? undefined : LOGIN_RULE;
}

/** Why `name` is not a GitHub repository name, or undefined when it is one. */
export function repoNameProblem(name: string): string | undefined {
  if (!REPO_NAME.test(name)) return REPO_NAME_RULE;
  if (name === '.' || name === '..') return `must be a GitHub repository name, not '${name}'`;
  const suffix = /\.(git|wiki)$/i.exec(name)?.[0];
  if (suffix) return `must not end in ${suffix.toLowerCase()} (GitHub gives no repository such a name)`;
  return undefined;
}

export type FullName = { ok: true; owner: string; name: string } | { ok: false; reason: string };

/**
 * Splits and checks `owner/name`.
 *
 * @example
 * parseFullName('acme/widgets') // { ok: true, owner: 'acme', name: 'widgets' }
 * parseFullName('acme/..')      // { ok: false, reason: "name must be a GitHub repository name, not '..'" }
 */
export function parseFullName(fullName: string): FullName {
  const parts = fullName.split('/');
  if (parts.length !== 2) return { ok: false, reason: 'must be owner/name' };
  const [owner = '', name = ''] = parts;
  const problem = withField('owner', loginProblem(owner)) ?? withField('name', repoNameProblem(name));
  return problem ? { ok: false, reason: problem } : { ok: true, owner, name };
}

const withField = (field: string, problem: string | undefined) => (problem ? `${field} ${problem}` : undefined);

const checked = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const reason = problem(value);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  });

export const LoginSchema = lazySchema(() => checked(loginProblem));
export const RepoNameSchema = lazySchema(() => checked(repoNameProblem));
export const FullNameSchema = lazySchema(() => checked((value) => {
  const parsed = parseFullName(value);
  return parsed.ok ? undefined : parsed.reason;
}));
