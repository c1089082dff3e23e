import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECK_RUN_NAME } from '../../src/notify/github-check.ts';
import { utf8Bytes } from '../../src/notify/markdown.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { E2E_SCOPE } from './bindings.ts';
import { checkRunsOf, post, pullRequestEvent, settledTask, signedDelivery, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;
const pr = fx.rulesPull;

async function reviewed(action: string): Promise<string> {
  const payload = pullRequestEvent(action, { number: pr.number, baseRef: pr.baseRef, baseSha: pr.base, headRef: pr.headRef, headSha: pr.head });
  Object.assign(payload.pull_request, { title: 'Change the api handler', body: 'One line.', changed_files: 1, additions: 1, deletions: 1 });
  const accepted = await post(WEBHOOK_URL, await signedDelivery(payload));
  expect(accepted.status).toBe(202);
  const { taskId } = await accepted.json<{ taskId: string }>();
  // A generous guard: the task is ready once its check run (with the report) is sent, and a loaded machine may retry an attempt.
  expect(await settledTask(taskId, tenant, 90_000)).toMatchObject({ status: 'ready', commit: pr.base });
  return taskId;
}

describe('the rules report on a pull request check run, through the Worker and the Task object', { timeout: 120_000 }, () => {
  it('opens the summary with what matters, and shows the rule files of the changed paths by the clients the deployment lists, with blobs, links at the base and the lints', async () => {
    const taskId = await reviewed('opened');
    const [run, ...others] = await checkRunsOf(taskId);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ body: { name: CHECK_RUN_NAME, head_sha: pr.head, conclusion: 'success' } });
    const { summary } = z.object({ output: z.object({ summary: z.string() }) }).parse(run?.body).output;
    expect(utf8Bytes(summary)).toBeLessThanOrEqual(65_535);
    const blob = (path: string) => `\\]\\(http://127\\.0\\.0\\.1:\\d+/s/${E2E_SCOPE}/${fx.owner}/${fx.repo}/blob/${pr.base}/${path.replace(/[./]/g, '\\$&')}\\)`;
    // The first line says what matters: the files that apply, the clients that never read one of
    // them (the root CLAUDE.md links to AGENTS.md: no gap), the lint that fails.
    expect(summary.split('\n')[0]).toBe('4 rule files apply to this change; Codex, Copilot and Cursor will not see `packages/api/CLAUDE.md`; 1 lint error');
    const section = summary.slice(summary.indexOf('### Rules for this change'), summary.indexOf('### Providers'));
    expect(section).toContain(`1 path at \`${pr.base}\`, clients starting at the root.`);
    // The deployment lists every client but Gemini CLI (CHECK_RUN_CLIENTS, e2e bindings): its columns, in the matrix's order.
    expect(section).toContain('| File | Blob | Groundwork | Codex | Claude Code | Copilot | Cursor |');
    expect(section).not.toContain('Gemini CLI');
    expect(section).toMatch(new RegExp(`\\| \\[\`packages/api/CLAUDE\\.md\`${blob('packages/api/CLAUDE.md')} \\| \`[0-9a-f]{12}\` \\| shadowed \\| \\*\\*not seen\\*\\* \\| lazy \\| \\*\\*not seen\\*\\* \\| \\*\\*not seen\\*\\* \\|$`, 'm'));
    // The root CLAUDE.md is AGENTS.md by a link: listed, but no client misses its text.
    expect(section).toMatch(new RegExp(`^\\| \\[\`CLAUDE\\.md\`${blob('CLAUDE.md')} \\|`, 'm'));
    expect(section).not.toContain('will not see [`CLAUDE.md`]');
    expect(section).toMatch(new RegExp(`- Codex will not see \\[\`packages/api/CLAUDE\\.md\`${blob('packages/api/CLAUDE.md')}: Codex reads`));
    expect(section).toMatch(new RegExp(`- \\*\\*error\\*\\* \\[\`\\.cursor/rules/api\\.mdc\`\\]\\(http://127\\.0\\.0\\.1:\\d+/s/${E2E_SCOPE}/${fx.owner}/${fx.repo}/blob/${pr.base}/\\.cursor/rules/api\\.mdc#L\\d+\\) line \\d+ \`frontmatter-unreadable\` \\(Cursor\\)`));
  });
});
