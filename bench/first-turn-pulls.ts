/**
 * The repository and pull requests bench/first-turn reads (bench/focus-reads' monorepo: a root
 * AGENTS.md and one per package, in 20 packages), as the tests' GitHub API server serves them, and
 * the signed deliveries that open them.
 */
import { signGitHubPayload } from '../src/triggers/github/verify.ts';
import type { createGitRepo } from '../test/support/git-fixtures.ts';
import { buildMonorepo, PACKAGES, PULL } from './focus-reads.ts';

export const OWNER = 'acme';
export const REPO = 'mono';

type Repo = ReturnType<typeof createGitRepo>;

/**
 * Three pull requests changing a file in every package: the first and a second on the same base,
 * and a third on a later commit of main (a new base, which nothing read before).
 */
export function firstTurnPulls(repo: Repo) {
  const { base, head } = buildMonorepo(repo);
  const second = secondPullRequest(repo, base);
  const { base: newBase, head: third } = newBasePullRequest(repo);
  const pulls = [
    { number: PULL, base: { ref: 'main', rev: base }, head: { ref: 'change', rev: head }, title: 'Touch every package' },
    { number: 13, base: { ref: 'main', rev: base }, head: { ref: 'change-2', rev: second }, title: 'Touch every package again' },
    { number: 14, base: { ref: 'main', rev: newBase }, head: { ref: 'change-3', rev: third }, title: 'Touch every package on a new base' },
  ];
  return { base, head, second, newBase, third, pulls };
}

/** A second pull request on the same base: one more change in every package, on its own branch. */
function secondPullRequest(repo: Repo, base: string): string {
  repo.git('checkout', '--quiet', '-b', 'change-2', base);
  for (let i = 1; i <= PACKAGES; i++) repo.write(`packages/p${String(i).padStart(2, '0')}/src/index.ts`, `export const name = 'again ${i}';\n`);
  const head = repo.commitAll('touch every package again');
  repo.git('checkout', '--quiet', 'main');
  return head;
}

/** A new commit on main (the new base) and a pull request on it changing every package once more. */
function newBasePullRequest(repo: Repo): { base: string; head: string } {
  repo.write('CHANGELOG.md', 'A commit on main after the first two pull requests were opened.\n');
  const base = repo.commitAll('main moves on');
  repo.git('checkout', '--quiet', '-b', 'change-3', base);
  for (let i = 1; i <= PACKAGES; i++) repo.write(`packages/p${String(i).padStart(2, '0')}/src/index.ts`, `export const name = 'on a new base ${i}';\n`);
  const head = repo.commitAll('touch every package on the new base');
  repo.git('checkout', '--quiet', 'main');
  return { base, head };
}

/** A signed `pull_request.opened` delivery for the served repository's pull request `pull`. */
export async function signedDelivery(pull: { number: number; base: string; head: string }, secret: string): Promise<{ headers: Record<string, string>; body: string }> {
  const repository = { id: 1, node_id: 'R_1', name: REPO, full_name: `${OWNER}/${REPO}`, private: false, owner: { login: OWNER, id: 1, type: 'Organization' }, html_url: `https://github.com/${OWNER}/${REPO}`, default_branch: 'main' };
  const body = JSON.stringify({
    action: 'opened',
    number: pull.number,
    installation: { id: 1, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' },
    repository,
    sender: { login: 'octocat', id: 2, type: 'User' },
    pull_request: {
      number: pull.number,
      html_url: `https://github.com/${OWNER}/${REPO}/pull/${pull.number}`,
      state: 'open',
      title: 'Touch every package',
      body: 'Every package changes.',
      draft: false,
      user: { login: 'octocat', id: 2, type: 'User' },
      labels: [],
      changed_files: PACKAGES,
      additions: PACKAGES,
      deletions: PACKAGES,
      base: { ref: 'main', sha: pull.base, repo: repository },
      head: { ref: `change-${pull.number}`, sha: pull.head, repo: repository },
    },
  });
  const headers = { 'content-type': 'application/json', 'X-GitHub-Event': 'pull_request', 'X-GitHub-Delivery': crypto.randomUUID(), 'X-Hub-Signature-256': await signGitHubPayload(secret, body) };
  return { headers, body };
}
