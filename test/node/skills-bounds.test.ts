import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { indexEntry, indexLines, runSkills, skillFile } from './skills-support.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');

describe('skills discovery bounds', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    for (const letter of LETTERS) repo.write(`wide/${letter}/SKILL.md`, skillFile(letter, `Skill ${letter}.`));
    repo.write('tools/shallow/SKILL.md', skillFile('shallow', 'One level down.'));
    repo.write('tools/shallow/nested/SKILL.md', skillFile('nested', 'A skill inside a skill is its file, not a skill.'));
    repo.write('tools/a/b/deep/SKILL.md', skillFile('deep', 'Three levels down.'));
    repo.write('docs/shared/SKILL.md', skillFile('shared', 'Linked from elsewhere.'));
    repo.symlink('../docs/shared', 'linked/dir-link');
    repo.write('linked/file-link/placeholder.txt', 'x');
    repo.symlink('../../docs/shared/SKILL.md', 'linked/file-link/SKILL.md');
    repo.symlink('../../../etc/passwd', 'linked/escape/SKILL.md');
    repo.write('big/frontmatter/SKILL.md', `---\nname: frontmatter\ndescription: ${'long '.repeat(400)}\n---\nBody.\n`);
    repo.commitAll('bounded');
  });
  afterAll(() => repo.remove());

  it('stops at maxDirectories in name order and says so', async () => {
    const run = await runSkills(repo, { config: { roots: ['wide/*'], maxDirectories: 10 } });
    // The root listing counts too, so nine skill directories fit.
    expect(indexLines(run).map((line) => line.slice(2, 3))).toEqual(LETTERS.slice(0, 9));
    expect(indexEntry(run)?.warnings).toEqual(['root wide/*: stopped after listing 10 directories (maxDirectories); skills in the rest are not indexed']);
    expect(run.calls.list).toBe(10);
  });

  it('stops at maxDepth below a ** root and says so', async () => {
    const run = await runSkills(repo, { config: { roots: ['tools/**'], maxDepth: 2 } });
    expect(indexLines(run)).toEqual(['- shallow: One level down. (tools/shallow/SKILL.md)']);
    expect(indexEntry(run)?.warnings).toEqual(['root tools/**: not searched deeper than 2 directories below "tools" (maxDepth)']);
  });

  it('finds deeper skills with a larger maxDepth, but never a skill inside a skill', async () => {
    const run = await runSkills(repo, { config: { roots: ['tools/**'], maxDepth: 3 } });
    expect(indexLines(run).map((line) => line.split(':')[0])).toEqual(['- deep', '- shallow']);
    expect(indexEntry(run)?.warnings).toEqual([]);
  });

  it('does not enter a symlinked directory; resolves a SKILL.md link inside the tree; refuses one that escapes', async () => {
    const run = await runSkills(repo, { config: { roots: ['linked/*'] } });
    expect(indexLines(run).map((line) => line.split(':')[0])).toEqual(['- shared']);
    const warnings = indexEntry(run)?.warnings ?? [];
    expect(warnings).toContain('linked/escape/SKILL.md: skipped: symlink to ../../../etc/passwd not followed (path escapes the repository root)');
    expect(warnings).toContain('linked/file-link/SKILL.md: name "shared" does not match its directory "file-link" [name-directory]');
    expect(indexEntry(run)?.body).not.toContain('dir-link');
  });

  it('skips a SKILL.md whose frontmatter does not close within maxSkillBytes, and warns about a long description', async () => {
    const run = await runSkills(repo, { config: { roots: ['big/*'], maxSkillBytes: 1_024 } });
    expect(run.outcomes[0]).toMatchObject({ outcome: 'empty', reason: 'big/frontmatter/SKILL.md: skipped: frontmatter does not close within the first 1024 bytes (maxSkillBytes) [frontmatter-unclosed]; no skills under big/*' });
    const whole = await runSkills(repo, { config: { roots: ['big/*'] } });
    expect(indexLines(whole)).toHaveLength(1);
    expect(indexEntry(whole)?.warnings).toEqual(['big/frontmatter/SKILL.md: description has 1999 characters; the spec allows at most 1024 [description-length]']);
  });
});
