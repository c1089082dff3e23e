import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repoNameProblem } from '../../src/sources/github/repo-name.ts';
import { repositoryIdentity, type RepositoryPolicy } from '../../src/tasks/repository-identity.ts';
import { RepoSchema } from '../../src/tasks/task-request.ts';

const POLICY: RepositoryPolicy = { githubApiUrl: 'https://api.github.com', gitAllowedHosts: [], localRepositories: {} };

const identity = (repo: string, policy: RepositoryPolicy = POLICY): string => {
  const named = repositoryIdentity(repo, policy);
  return named.ok ? named.identity : `refused: ${named.reason}`;
};

/** A repository, and what makes two of them the same one: GitHub names ignore case; a path does not. */
type Repository = { kind: 'github'; owner: string; name: string } | { kind: 'git'; host: string; path: string[] } | { kind: 'local'; path: string[] };

const segment = fc.stringMatching(/^[a-z0-9][a-zA-Z0-9_-]{0,6}$/);
const github = fc
  .record({ kind: fc.constant('github' as const), owner: fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9-]{0,6}$/), name: fc.stringMatching(/^[a-zA-Z0-9._-]{1,8}$/) })
  .filter((repo) => repoNameProblem(repo.name) === undefined);
const git = fc.record({ kind: fc.constant('git' as const), host: fc.constantFrom('git.example.com', 'src.corp.test', 'gitlab.example.org:8443'), path: fc.array(segment, { minLength: 1, maxLength: 3 }) });
const local = fc.record({ kind: fc.constant('local' as const), path: fc.array(segment, { minLength: 1, maxLength: 3 }) });
const repository: fc.Arbitrary<Repository> = fc.oneof(github, git, local);

/** Which repository it is, as the services that host it see it. */
function key(repo: Repository): string {
  if (repo.kind === 'github') return `github/${repo.owner.toLowerCase()}/${repo.name.toLowerCase()}`;
  if (repo.kind === 'git') return `git/${repo.host}/${repo.path.join('/')}`;
  return `local/${repo.path.join('/')}`;
}

const localUrl = (path: string[]) => `file:///srv/${path.join('/')}`;

/** Every way a task may name `repo`. */
function spellings(repo: Repository): string[] {
  if (repo.kind === 'local') return [localUrl(repo.path)];
  if (repo.kind === 'git') {
    const url = `https://${repo.host}/${repo.path.join('/')}`;
    return [url, `${url}.git`, `${url}/`, `https://user:secret@${repo.host}/${repo.path.join('/')}.git`, `${url}#readme`];
  }
  const { owner, name } = repo;
  return [`${owner}/${name}`, `${owner.toUpperCase()}/${name.toLowerCase()}`, `https://github.com/${owner}/${name}`, `https://github.com/${owner}/${name}.git`, `https://x-access-token:t@GitHub.com/${owner}/${name}/`];
}

const serving = (...repos: Repository[]): RepositoryPolicy => ({
  ...POLICY,
  localRepositories: Object.fromEntries(repos.flatMap((repo) => (repo.kind === 'local' ? [[localUrl(repo.path), 'http://127.0.0.1:9/x.git']] : []))),
});

describe('repository identity', () => {
  it('names one repository the same way in every form a task accepts', () => {
    fc.assert(
      fc.property(repository, (repo) => {
        const forms = spellings(repo);
        for (const form of forms) expect(RepoSchema.safeParse(form).success, form).toBe(true);
        const names = new Set(forms.map((form) => identity(form, serving(repo))));
        expect(names.size, [...names].join(', ')).toBe(1);
        expect([...names][0]).not.toMatch(/^refused/);
      }),
    );
  });

  it('never gives two different repositories one identity, for every form and across forms', () => {
    fc.assert(
      fc.property(repository, repository, (a, b) => {
        fc.pre(key(a) !== key(b));
        const policy = serving(a, b);
        for (const x of spellings(a)) for (const y of spellings(b)) expect(identity(x, policy), `${x} vs ${y}`).not.toBe(identity(y, policy));
      }),
    );
  });

  it('gives two local repositories two identities (they once shared github:<host>/file:/)', () => {
    const policy = { ...POLICY, localRepositories: { 'file:///srv/a': 'http://127.0.0.1:1/a.git', 'file:///srv/b': 'http://127.0.0.1:1/b.git' } };
    expect(identity('file:///srv/a', policy)).toBe('file:///srv/a');
    expect(identity('file:///srv/b', policy)).toBe('file:///srv/b');
  });

  it('follows the deployment’s GitHub host, and keeps other hosts and deeper paths apart', () => {
    const ghes = { ...POLICY, githubApiUrl: 'https://ghe.example.com/api/v3' };
    expect(identity('acme/widgets', ghes)).toBe('github:ghe.example.com/acme/widgets');
    expect(identity('https://ghe.example.com/acme/widgets.git', ghes)).toBe('github:ghe.example.com/acme/widgets');
    expect(identity('https://github.com/acme/widgets.git', ghes)).toBe('https://github.com/acme/widgets');
    expect(identity('https://github.com/acme/widgets/tree/main')).toBe('https://github.com/acme/widgets/tree/main');
    expect(identity('http://github.com/acme/widgets')).toBe('http://github.com/acme/widgets');
    expect(identity('https://user:pw@git.example.com/Team/App.git/')).toBe('https://git.example.com/Team/App');
  });

  it.each([
    ['file:///srv/not-served', 'refused: file:/// repositories are readable only on the local instance `groundwork run` starts for them'],
    ['acme/..', "refused: name must be a GitHub repository name, not '..'"],
    ['acme/.', "refused: name must be a GitHub repository name, not '.'"],
    ['ACME/..', "refused: name must be a GitHub repository name, not '..'"],
    ['acme/x.git', 'refused: name must not end in .git (GitHub gives no repository such a name)'],
    ['acme', 'refused: must be owner/name or an http(s) git URL'],
    ['a/b/c', 'refused: must be owner/name or an http(s) git URL'],
    ['', 'refused: is required'],
    ['ftp://git.example.com/x', 'refused: must be owner/name or an http(s) git URL'],
    ['https://git.example.com/app?token=secret', 'refused: git URL must not have a query string'],
  ])('refuses %j as a task would, without echoing it', (repo, refused) => {
    expect(identity(repo)).toBe(refused);
    // A task's schema refuses the same (a local repository's is refused where the task is created).
    if (!repo.startsWith('file:')) expect(RepoSchema.safeParse(repo).success).toBe(false);
  });

  it('refuses a git host the deployment does not allow, as a task is refused', () => {
    const allowed = { ...POLICY, gitAllowedHosts: ['git.example.com'] };
    expect(identity('https://git.example.com/team/app.git', allowed)).toBe('https://git.example.com/team/app');
    expect(identity('https://evil.test/team/app.git', allowed)).toBe('refused: evil.test is not an allowed git host on this deployment');
  });
});
