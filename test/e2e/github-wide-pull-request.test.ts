/**
 * A pull request with 3,000 changed files (the most GitHub lists) through the real Worker, the
 * Task object and the local GitHub API server: the host lists the files it needs once (three
 * pages of 100, not thirty), the rules follow the first 300 and the notice says how many were not
 * followed, the directories read stay within their bound, and the check run fits what GitHub takes.
 */
import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { FOCUS_LIMITS } from '../../src/context/focus.ts';
import { MAX_SUMMARY_CHARS } from '../../src/notify/check-run-summary.ts';
import { TurnResultSchema } from '../../src/tasks/task-results.ts';
import { createApiScope, githubFixture, openPullRequest, pushToBranch } from '../support/github-api-client.ts';
import { E2E_SCOPE } from './bindings.ts';
import { checkRunsOf, post, pullRequestEvent, settledTask, signedDelivery, taskStub, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;
const FILES = 3_000;
/** Directories (of the first ones the pull request touches) whose rules the base holds. */
const RULED = 100;
const dir = (i: number) => `wide-${String(i).padStart(4, '0')}`;

describe('a pull request that changes 3,000 files', () => {
  it('follows the first 300, says how many it did not, lists them once, and reports a check run GitHub accepts', { timeout: 120_000 }, async () => {
    const run = crypto.randomUUID().slice(0, 8);
    const baseRef = `wide-base-${run}`;
    const headRef = `wide-head-${run}`;
    const rules = Object.fromEntries(Array.from({ length: RULED }, (_, i) => [`${dir(i)}/AGENTS.md`, `# Rules of ${dir(i)}\n\nKeep ${dir(i)} small.\n`]));
    const base = await pushToBranch(baseRef, rules, { from: fx.commits.first });
    const changed = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`${dir(i)}/file.txt`, 'changed\n']));
    const head = await pushToBranch(headRef, changed, { from: baseRef });
    const number = await openPullRequest({ base: { ref: baseRef, rev: baseRef }, head: { ref: headRef, rev: headRef } });

    const event = pullRequestEvent('opened', { number, baseRef, baseSha: base, headRef, headSha: head });
    event.pull_request.title = `Touch ${FILES} files`;
    Object.assign(event.pull_request, { changed_files: FILES, additions: FILES, deletions: 0 });
    const accepted = await post(WEBHOOK_URL, await signedDelivery(event));
    expect(accepted.status).toBe(202);
    const taskId = String((await accepted.json<Record<string, unknown>>())['taskId']);
    // Committing 3,000 files and diffing them costs the local server seconds on a loaded machine.
    const task = await settledTask(taskId, tenant, 60_000);
    expect(task).toMatchObject({ status: 'ready', commit: base });

    // Listed once for every provider, as far as the one that needs most: 300 files, 3 pages.
    expect(await createApiScope(E2E_SCOPE).count(`/pulls/${number}/files`)).toBe(Math.ceil(FOCUS_LIMITS.pullRequestFiles / 100) * task.attempts);

    const read = TurnResultSchema.parse(await taskStub(taskId).readTurn(tenant, 0));
    if (read.status !== 'ok') throw new Error(`turn 0: ${read.status}`);
    const turn = read.turn;
    const prompt = turn.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain(`Only the first ${FOCUS_LIMITS.pullRequestFiles} of the ${FILES} files pull request #${number} changes were followed: the rules of directories that only the other ${FILES - FOCUS_LIMITS.pullRequestFiles} touch were not read.`);
    // Of the 300 directories followed, at most 64 are read, the rest named in a notice.
    const ruled = turn.entries.filter((entry) => entry.provider === 'rules' && /^wide-\d{4}\/AGENTS\.md$/.test(entry.source.path ?? ''));
    expect(ruled.length).toBeGreaterThan(0);
    expect(ruled.length).toBeLessThanOrEqual(FOCUS_LIMITS.directories);
    expect(prompt).toMatch(new RegExp(`The rules of \\d+ more directories on the focus paths' chains were not read: at most ${FOCUS_LIMITS.directories} directories are followed`));
    // The changed files the model is shown are the first few, with the total GitHub gave.
    expect(prompt).toMatch(new RegExp(`Changed files as GitHub listed them when the context was assembled \\(\\d+ of ${FILES}\\):`));
    // However many files, the context stays within the agent's total budget.
    const reviewer = resolveAgent('reviewer');
    if (!reviewer.ok) throw new Error(reviewer.error);
    expect(turn.providers.reduce((sum, outcome) => sum + outcome.tokens, 0)).toBeLessThanOrEqual(reviewer.agent.totalBudget);

    const [checkRun] = await checkRunsOf(taskId);
    const output = checkRun?.body['output'] as { title: string; summary: string } | undefined;
    expect(output?.title).toMatch(/^Context ready: /);
    expect(output?.summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    // A reviewer reads the check run, not the prompt: the rules' reason says what was not followed.
    expect(output?.summary).toMatch(new RegExp(`\\| rules \\| rules \\| included \\| only the first ${FOCUS_LIMITS.pullRequestFiles} of the ${FILES} changed files were followed; \\d+ directories past the bound of ${FOCUS_LIMITS.directories} were not read`));
  });
});
