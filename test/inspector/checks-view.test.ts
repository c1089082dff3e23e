import { describe, expect, it } from 'vitest';
import { CheckRecordSchema } from '../../src/checks/result.ts';
import { api } from '../support/api.ts';
import { createTestRemote } from '../support/git-remote.ts';
import { setCommitChecks } from '../support/github-api-client.ts';
import { check, pullRequestTask } from '../e2e/support-checks.ts';
import { openPage, readyTask, textOf } from './support.ts';

const short = (sha: string) => sha.slice(0, 7);

/** The text of the page's checks section. */
function checksSection(html: string): string {
  const start = html.indexOf('<section aria-labelledby="checks">');
  return textOf(html.slice(start, html.indexOf('</section>', start)));
}

describe('the checks before acting on the task page', () => {
  it('says none were asked for, then lists each check on one line, newest first, through the signed link', async () => {
    const remote = await createTestRemote({ 'AGENTS.md': '# Rules\n' });
    const { id, viewUrl } = await readyTask({ repo: remote.url, ref: 'main' });
    expect(checksSection((await openPage(viewUrl)).html)).toContain('No check was asked for.');

    const push = CheckRecordSchema.parse((await api('POST', `/tasks/${id}/checks`, { body: { action: 'push' } })).json);
    const ci = CheckRecordSchema.parse((await api('POST', `/tasks/${id}/checks`, { body: { action: 'report-ci' } })).json);
    const at = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
    const text = checksSection((await openPage(viewUrl)).html);
    expect(text).toContain('2 checks.');
    expect(text.indexOf(`unknown #2 report-ci on ${short(remote.first)} at ${at(ci.checkedAt)}: unknown, ${remote.url} is not a GitHub repository (owner/name)`)).toBeGreaterThan(-1);
    expect(text.indexOf(`go #1 push on ${short(remote.first)} at ${at(push.checkedAt)}: go, main is still at ${short(remote.first)} on the remote, the commit you built on`)).toBeGreaterThan(text.indexOf('#2 report-ci'));
  });

  it('escapes what a check run on GitHub is called', async () => {
    const task = await pullRequestTask();
    await setCommitChecks(task.head, { checkRuns: [{ name: '<img src=x onerror=alert(1)>', conclusion: 'failure' }] });
    expect(await check(task.taskId, { action: 'report-ci' })).toMatchObject({ verdict: 'stop', reasons: ['<img src=x onerror=alert(1)> failed', expect.any(String)] });
    const page = await openPage(`/tasks/${task.taskId}/view`, { tenant: 'acme' });
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<img src=x');
    expect(checksSection(page.html)).toContain(`report-ci on ${short(task.head)} at`);
    expect(checksSection(page.html)).toContain(': stop, <img src=x onerror=alert(1)> failed');
  });
});
