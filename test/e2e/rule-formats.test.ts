import { describe, expect, it } from 'vitest';
import type { AssembledTurn } from '../../src/context/turn-schema.ts';
import { api } from '../support/api.ts';
import { createTestRemote } from '../support/git-remote.ts';
import { RULE_FORMAT_FILES } from '../support/rule-formats-repo.ts';
import { openPage } from '../inspector/support.ts';
import { firstTurn } from '../support/first-turn.ts';

const verdicts = (turn: AssembledTurn) => turn.providers.find((p) => p.name === 'rules')?.verdicts ?? [];

describe('instruction formats through the Worker, the Task object and a git remote', () => {
  it('keeps a verdict per rule file in the turn record, and shows it on the task page', async () => {
    const remote = await createTestRemote(RULE_FORMAT_FILES);
    const { id, turn } = await firstTurn({ repo: remote.url, request: 'Tidy the API errors.', cwd: 'packages/api' });
    expect(turn.commit).toBe(remote.first);
    const found = verdicts(turn);
    expect(found.find((v) => v.path === '.claude/rules/api.md')).toMatchObject({ verdict: 'applied', format: 'claude-rule', reason: 'paths "packages/api/**" matched the working directory packages/api' });
    expect(found.find((v) => v.path === '.cursor/rules/database.mdc')).toMatchObject({ verdict: 'indexed' });
    expect(found.find((v) => v.path === '.claude/CLAUDE.md')).toMatchObject({ verdict: 'applied', format: 'claude-memory', reason: 'always (Claude Code project memory)' });
    expect(found.find((v) => v.path === 'docs/conventions.md')).toMatchObject({ verdict: 'applied', format: 'import', reason: 'imported by .claude/CLAUDE.md' });
    expect(found.find((v) => v.path === '.github/instructions/typo.instructions.md')?.reason).toContain('matches no file at this commit');
    expect(found.find((v) => v.path === 'docs/a.md')).toMatchObject({ verdict: 'applied', format: 'import', reason: 'imported by docs/style.md (2 levels down)' });
    // Over the remote there is no symlink, so the import is simply missing, and said so.
    expect(found.find((v) => v.path === 'packages/api/notes/out.md')?.reason).toContain('is not in the tree at this commit');
    expect(turn.entries.filter((e) => e.provider === 'rules').map((e) => e.title)).toContain('Rules index');
    const user = turn.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user).toContain(`source=".claude/rules/api.md@${remote.first}"`);
    expect(user).not.toContain('Migrations: never edit an applied one.');

    const page = await openPage(`/tasks/${id}/view`, { tenant: 'acme' });
    expect(page.status).toBe(200);
    const section = page.html.slice(page.html.indexOf('id="rule-files-0"'), page.html.indexOf('</section>', page.html.indexOf('id="rule-files-0"')));
    expect(section).toContain('.cursor/rules/huge.mdc');
    expect(section).toContain('frontmatter is 20014 characters');
    expect(section).toContain('<tr data-verdict="indexed">');
    expect(section).toContain('no focus path matched applyTo &quot;srcs/**/*.go&quot;');
  });

  it('escapes rule paths and reasons on the task page', async () => {
    const remote = await createTestRemote({
      'AGENTS.md': 'root\n',
      '.cursor/rules/<script>alert(1)<\u002fscript>.mdc': '---\nglobs: "<img src=x onerror=alert(1)>"\n---\nx\n',
    });
    const { id } = await firstTurn({ repo: remote.url, request: 'Look.' });
    const page = await openPage(`/tasks/${id}/view`, { tenant: 'acme' });
    const section = page.html.slice(page.html.indexOf('id="rule-files-0"'));
    expect(section).toContain('&lt;script&gt;alert(1)&lt;/script&gt;.mdc');
    expect(section).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(section).not.toContain('<img src=x');
  });
});
