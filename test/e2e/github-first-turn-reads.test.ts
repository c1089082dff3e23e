import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiScope, githubFixture, openPullRequest, pushToBranch, type RecordedRequest } from '../support/github-api-client.ts';
import { E2E_SCOPE } from './bindings.ts';
import { checkRunsOf, post, pullRequestEvent, settledTask, signedDelivery, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;

/**
 * Rules where every client keeps them: directory files of each client's name (one importing
 * another), Cursor rules at the root and nested, Claude rules, Copilot instructions, a skill in
 * a client's skills root. Their globs match the change, or files in directories the task lists
 * anyway (the focus chains), or, for Copilot's, any directory ("packages/web/**" is matched at
 * any depth).
 */
const CLIENT_RULES: Record<string, string> = {
  'packages/api/AGENTS.md': '# api\n\nHandlers validate with zod.\n',
  'packages/api/CLAUDE.md': '# api, for Claude\n\n@AGENTS.md\n\nRun the api tests before a commit.\n',
  'packages/api/GEMINI.md': '# api, for Gemini\n\nKeep handlers small.\n',
  'packages/api/README.md': '# api\n',
  'packages/api/src/handler.ts': 'export const handler = 1;\n',
  'packages/web/AGENTS.md': '# web\n\nComponents are small.\n',
  'packages/web/src/app.tsx': 'export const App = 1;\n',
  'packages/web/.cursor/rules/web.mdc': '---\nglobs: src/**\n---\nWeb: use the design tokens.\n',
  'tools/build/index.ts': 'export const build = 1;\n',
  '.cursor/rules/api.mdc': '---\nglobs: packages/api/**\nalwaysApply: false\n---\nUse the api client.\n',
  '.cursor/rules/readmes.mdc': '---\nglobs: packages/*/README.md\nalwaysApply: false\n---\nREADMEs say how to run the package.\n',
  '.claude/rules/api.md': '---\npaths:\n  - "packages/api/**"\n---\nClaude API: validate with zod.\n',
  '.claude/rules/docs.md': '---\npaths: "**/*.md"\n---\nClaude docs: one sentence a line.\n',
  '.claude/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release.\n---\nTag, then publish.\n',
  '.github/copilot-instructions.md': 'Copilot: prefer small pull requests.\n',
  '.github/instructions/web.instructions.md': '---\napplyTo: "packages/web/**"\n---\nReact: function components only.\n',
  '.github/instructions/agents.instructions.md': '---\napplyTo: "**/AGENTS.md"\n---\nAGENTS.md files stay short.\n',
};

const CHANGE = { 'packages/api/src/handler.ts': 'export const handler = 2;\n', 'packages/web/src/app.tsx': 'export const App = 2;\n' };

/** A pull request of CHANGE on `rules` (branches named by `name`), reviewed to its check run; the task and what GitHub was asked for its base. */
async function reviewed(name: string, rules: Record<string, string>) {
  const base = await pushToBranch(`${name}-base`, rules, { from: fx.commits.first });
  const head = await pushToBranch(`${name}-change`, CHANGE, { from: base });
  const number = await openPullRequest({ base: { ref: `${name}-base`, rev: base }, head: { ref: `${name}-change`, rev: head }, title: 'Change the api and the web app' });
  const payload = pullRequestEvent('opened', { number, baseRef: `${name}-base`, baseSha: base, headRef: `${name}-change`, headSha: head });
  Object.assign(payload.pull_request, { changed_files: 2, additions: 2, deletions: 2 });
  const accepted = await post(WEBHOOK_URL, await signedDelivery(payload));
  expect(accepted.status).toBe(202);
  const { taskId } = await accepted.json<{ taskId: string }>();
  const task = await settledTask(taskId, tenant, 90_000);
  expect(task).toMatchObject({ status: 'ready', commit: base });
  const [run, ...others] = await checkRunsOf(taskId);
  expect(others).toEqual([]);
  const { summary } = z.object({ output: z.object({ summary: z.string() }) }).parse(run?.body).output;
  // The scope is shared by the e2e files: this task's git reads are the ones naming its base.
  const requests = (await createApiScope(E2E_SCOPE).stats()).requests.filter((request) => request.path.includes(base));
  const paths = (part: string) => requests.filter((request: RecordedRequest) => request.path.includes(part)).map((request) => request.path);
  return { task, summary, trees: paths('/git/trees/'), commits: paths('/git/commits/'), blobs: paths('/git/blobs/') };
}

describe("a pull request's first turn reads what it planned in one read-ahead, up to its check run", { timeout: 120_000 }, () => {
  it('asks GitHub for no tree, commit or blob after the read-ahead, with rules in every client directory', async () => {
    const { task, summary, trees, commits, blobs } = await reviewed('client-rules', CLIENT_RULES);
    expect({ trees, commits, blobs }).toEqual({ trees: [], commits: [], blobs: [] });
    // Turn 0: the changed files and the one read-ahead; the check run's rules report read nothing more.
    expect(task.turns[0]?.github).toMatchObject({ requests: { rest: 1, graphql: 1 } });
    // Nothing was left out to save the requests: the report has every rule file and judged every glob.
    for (const path of ['packages/api/AGENTS.md', 'packages/api/CLAUDE.md', 'packages/api/GEMINI.md', '.cursor/rules/api.mdc', '.claude/rules/api.md', 'packages/web/.cursor/rules/web.mdc', '.github/instructions/web.instructions.md']) {
      expect(summary).toContain(`\`${path}\``);
    }
    expect(summary).not.toContain('matches no file');
  });

  it('reads the whole tree once, in turn 0, for a glob only files outside the read-ahead match, and the report reads it again from the cache', async () => {
    const { task, summary, trees } = await reviewed('tools-rules', { ...CLIENT_RULES, '.cursor/rules/tools.mdc': '---\nglobs: tools/**/*.ts\nalwaysApply: false\n---\nTools run in Node.\n', '.claude/rules/gone.md': '---\npaths: "srcs/**"\n---\nNever matched.\n' });
    expect(trees).toHaveLength(1);
    expect(task.turns[0]?.github).toMatchObject({ requests: { rest: 2, graphql: 1 } });
    // The walk it was read for: one glob proven alive, the other dead, in the turn and in the report.
    const verdicts = task.turns[0]?.providers.find((provider) => provider.name === 'rules')?.verdicts ?? [];
    expect(verdicts.find((verdict) => verdict.path === '.cursor/rules/tools.mdc')?.reason).not.toContain('matches no file');
    expect(verdicts.find((verdict) => verdict.path === '.claude/rules/gone.md')?.reason).toContain('"srcs/**" matches no file at this commit');
    expect(summary).toContain('glob-matches-nothing');
  });
});
