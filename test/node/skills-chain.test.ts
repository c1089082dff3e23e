/**
 * Skills follow the task's directory chains: a sub-project's own `.agents/skills/` or
 * `.claude/skills/` on the way to the working directory (commit-stable, part of the shared index)
 * or to a focus path (task-stable, an index of their own after it), on a monorepo shaped like
 * real ones, through the real runner and the local git source.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { indexEntry, indexLines, runSkills, skillFile } from './skills-support.ts';

const FOCUS_TITLE = 'Skills index: focus paths';

describe('skills along the focus chains of a monorepo', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('.agents/skills/release-notes/SKILL.md', skillFile('release-notes', 'Draft release notes from merged pull requests.'));
    repo.write('.agents/skills/deploy/SKILL.md', skillFile('deploy', 'Deploy the whole monorepo.'));
    repo.write('packages/api/.agents/skills/api-auth/SKILL.md', skillFile('api-auth', 'Change how the API authenticates requests.'));
    repo.write('packages/api/.agents/skills/deploy/SKILL.md', skillFile('deploy', 'Deploy the API alone.'));
    repo.write('packages/api/src/server.ts', 'export {};\n');
    repo.write('packages/web/.claude/skills/web-ui/SKILL.md', skillFile('web-ui', 'Build web components the house way.'));
    repo.write('packages/web/src/app.ts', 'export {};\n');
    // Not on any chain of the tasks below: never indexed.
    repo.write('packages/mobile/.agents/skills/mobile-build/SKILL.md', skillFile('mobile-build', 'Build the mobile app.'));
    // Deep enough that a small bound on chain directories bites.
    repo.write('tools/a/b/c/d/.agents/skills/deep-tool/SKILL.md', skillFile('deep-tool', 'A tool five directories down.'));
    repo.commitAll('a monorepo with nested skills');
  });
  afterAll(() => repo.remove());

  it('indexes the nested skills on the way to the working directory in the shared, commit-stable index', async () => {
    const run = await runSkills(repo, { cwd: 'packages/api/src' });
    const lines = indexLines(run);
    expect(lines).toEqual([
      '- api-auth: Change how the API authenticates requests. (packages/api/.agents/skills/api-auth/SKILL.md)',
      '- deploy: Deploy the whole monorepo. (.agents/skills/deploy/SKILL.md)',
      '- deploy: Deploy the API alone. (packages/api/.agents/skills/deploy/SKILL.md)',
      '- release-notes: Draft release notes from merged pull requests. (.agents/skills/release-notes/SKILL.md)',
    ]);
    expect(indexEntry(run)?.stability).toBe('commit');
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index']);
    // Duplicates across roots are warned as they are inside one root.
    expect(indexEntry(run)?.warnings).toContain(
      'skills named "deploy" at .agents/skills/deploy/SKILL.md, packages/api/.agents/skills/deploy/SKILL.md: a plain $deploy selects none of them',
    );
  });

  it('selects a nested skill by $name like any other', async () => {
    const run = await runSkills(repo, { cwd: 'packages/api', request: 'Rotate the keys with $api-auth.' });
    expect(run.entries.map((entry) => [entry.title, entry.source.path])).toContainEqual(['Selected skill: api-auth', 'packages/api/.agents/skills/api-auth/SKILL.md']);
  });

  it('puts what only the focus paths bring in a task-stable index after the shared one, which stays byte for byte as without them', async () => {
    const plain = await runSkills(repo, {});
    const focused = await runSkills(repo, { focusPaths: ['packages/web/src/app.ts', 'packages/api/src/server.ts'] });
    expect(focused.entries.map((entry) => [entry.title, entry.stability])).toEqual([
      ['Skills index', 'commit'],
      [FOCUS_TITLE, 'task'],
    ]);
    expect(indexEntry(focused)?.body).toBe(indexEntry(plain)?.body);
    const focus = focused.entries.find((entry) => entry.title === FOCUS_TITLE);
    expect(focus?.body.split('\n').slice(1)).toEqual([
      '- api-auth: Change how the API authenticates requests. (packages/api/.agents/skills/api-auth/SKILL.md)',
      '- deploy: Deploy the API alone. (packages/api/.agents/skills/deploy/SKILL.md)',
      '- web-ui: Build web components the house way. (packages/web/.claude/skills/web-ui/SKILL.md)',
    ]);
    expect(focus?.source).toMatchObject({ path: 'packages', revision: focused.commit });
    expect(focused.entries.map((entry) => entry.body).join('\n')).not.toContain('mobile-build');
  });

  it('brings nothing more for a focus path inside the working directory’s chain', async () => {
    const run = await runSkills(repo, { cwd: 'packages/api', focusPaths: ['packages/api/src/server.ts'] });
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index']);
    expect(indexEntry(run)?.stability).toBe('commit');
  });

  it('follows a focus path the commit does not have as far as its nearest directory, and lists no file', async () => {
    const run = await runSkills(repo, { focusPaths: ['packages/web/src/new-file.ts', 'packages/web/not-yet/deeper/x.ts'] });
    expect(run.entries.find((entry) => entry.title === FOCUS_TITLE)?.body).toContain('- web-ui:');
    // '', packages, packages/web, packages/web/src for the chains; .claude/skills and web-ui for discovery.
    const listed = run.calls.list;
    const none = await runSkills(repo, { focusPaths: [] });
    expect(listed - none.calls.list).toBe(6);
  });

  it('lists at most maxChainDirectories directories of a chain and names what it did not search', async () => {
    const run = await runSkills(repo, { cwd: 'tools/a/b/c/d', config: { maxChainDirectories: 3 } });
    expect(indexEntry(run)?.body).not.toContain('deep-tool');
    expect(indexEntry(run)?.warnings).toContain(
      'nested skill roots: stopped after listing 3 directories on the way to the working directory tools/a/b/c/d (maxChainDirectories); not searched: tools/a/b',
    );
    const wide = await runSkills(repo, { cwd: 'tools/a/b/c/d' });
    expect(indexEntry(wide)?.body).toContain('- deep-tool: A tool five directories down. (tools/a/b/c/d/.agents/skills/deep-tool/SKILL.md)');
  });

  it('looks up no nested root when nestedRoots is empty', async () => {
    const run = await runSkills(repo, { cwd: 'packages/api', focusPaths: ['packages/web/src/app.ts'], config: { nestedRoots: [] } });
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index']);
    expect(indexLines(run).map((line) => line.split(':')[0])).toEqual(['- deploy', '- release-notes']);
  });

  it('refuses a nested root that does not start with a directory name, naming it', async () => {
    const run = await runSkills(repo, { config: { nestedRoots: ['*/skills/*/'] } });
    expect(run.outcomes[0]).toMatchObject({ outcome: 'invalid' });
    expect(run.outcomes[0]?.reason).toContain('config.nestedRoots[0]');
    expect(run.outcomes[0]?.reason).toContain('must start with a directory name');
  });
});
