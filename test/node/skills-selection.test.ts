import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { indexEntry, indexLines, runSkills, skillFile } from './skills-support.ts';

const ROOT = '.agents/skills';
const RELEASE_BODY = '# Release notes\n\nCollect merged pull requests since the last tag. 🚀 发布\n';

describe('selecting skills on a real repository', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write(`${ROOT}/release-notes/SKILL.md`, skillFile('release-notes', 'Draft release notes.', RELEASE_BODY));
    repo.write(`${ROOT}/lint/SKILL.md`, skillFile('lint', 'Run the linter.', 'Run `npm run lint` and fix every report.\n'));
    repo.write(`${ROOT}/deploy/SKILL.md`, skillFile('deploy', 'Deploy from the first copy.', 'FIRST DEPLOY BODY\n'));
    repo.write(`${ROOT}/deploy-copy/SKILL.md`, skillFile('deploy', 'Deploy from the second copy.', 'SECOND DEPLOY BODY\n'));
    repo.write(`${ROOT}/huge/SKILL.md`, skillFile('huge', 'A long skill.', `${'Step with many words in it. '.repeat(2_000)}\n`));
    repo.commitAll('skills');
  });
  afterAll(() => repo.remove());

  it('adds the body of a skill named with $name in the request, frontmatter stripped', async () => {
    const run = await runSkills(repo, { request: 'please use $release-notes here.' });
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index', 'Selected skill: release-notes']);
    const selected = run.entries[1];
    expect(selected).toMatchObject({
      body: RELEASE_BODY,
      source: { uri: run.snapshot.uri(`${ROOT}/release-notes/SKILL.md`), path: `${ROOT}/release-notes/SKILL.md`, revision: run.commit },
      freshness: 'pinned',
      truncated: false,
      warnings: [],
    });
    expect(run.outcomes[0]).toMatchObject({ outcome: 'included' });
    expect(run.outcomes[0]?.reason).toBeUndefined();
  });

  it('selects from the explicit list as well, once per skill, in name order', async () => {
    const run = await runSkills(repo, { request: 'Use $release-notes and then $lint.', skills: ['lint', 'release-notes'] });
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index', 'Selected skill: lint', 'Selected skill: release-notes']);
    expect(run.entries[1]?.body).toBe('Run `npm run lint` and fix every report.\n');
  });

  it('does not read a SKILL.md twice when the index was just built', async () => {
    const run = await runSkills(repo, { request: '$lint' });
    // One read per skill directory for the index; the selection reuses the lint read.
    expect(run.calls.read).toBe(5);
  });

  it('warns about an unknown selection and selects nothing for it', async () => {
    const run = await runSkills(repo, { request: 'Try $no-such-skill and pay $100 to $HOME.', skills: ['missing-too'] });
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index']);
    expect(indexEntry(run)?.warnings).toEqual([
      `${ROOT}/deploy-copy/SKILL.md: name "deploy" does not match its directory "deploy-copy" [name-directory]`,
      'skills named "deploy" at .agents/skills/deploy-copy/SKILL.md, .agents/skills/deploy/SKILL.md: a plain $deploy selects none of them',
      '$no-such-skill in the task: no such skill in the index',
      'skill "missing-too" selected for the task: no such skill in the index',
    ]);
  });

  it('names both paths when two skills share a name, and a plain $name selects neither', async () => {
    const run = await runSkills(repo, { request: 'Ship it with $deploy.' });
    expect(indexLines(run).filter((line) => line.startsWith('- deploy:'))).toEqual([
      `- deploy: Deploy from the second copy. (${ROOT}/deploy-copy/SKILL.md)`,
      `- deploy: Deploy from the first copy. (${ROOT}/deploy/SKILL.md)`,
    ]);
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index']);
    const warnings = indexEntry(run)?.warnings ?? [];
    expect(warnings).toContain(`${ROOT}/deploy-copy/SKILL.md: name "deploy" does not match its directory "deploy-copy" [name-directory]`);
    expect(warnings).toContain(
      `$deploy in the task: 2 skills have this name (${ROOT}/deploy-copy/SKILL.md, ${ROOT}/deploy/SKILL.md); none was selected, name one by its path`,
    );
    const bodies = run.entries.map((entry) => entry.body).join('\n');
    expect(bodies).not.toContain('FIRST DEPLOY BODY');
    expect(bodies).not.toContain('SECOND DEPLOY BODY');
  });

  it('selects one of two same-named skills by its path', async () => {
    const run = await runSkills(repo, { skills: [`${ROOT}/deploy-copy`] });
    expect(run.entries.map((entry) => [entry.title, entry.body])).toContainEqual(['Selected skill: deploy', 'SECOND DEPLOY BODY\n']);
  });

  it('cuts a long selected body to its share with the truncation marker, and keeps the index', async () => {
    const run = await runSkills(repo, { request: '$huge', budget: 1_500, config: { minIndexTokens: 300, maxSelectedTokens: 800 } });
    const selected = run.entries.find((entry) => entry.title === 'Selected skill: huge');
    expect(selected?.tokens).toBeLessThanOrEqual(800);
    expect(selected?.truncated).toBe(true);
    expect(selected?.body).toMatch(
      /\n\[… truncated by groundwork: \.agents\/skills\/huge\/SKILL\.md shown \d+\/\d+ chars\]\n\[The rest of this skill is in \.agents\/skills\/huge\/SKILL\.md \(\d+ lines\): read it from line \d+ before following the instructions above\.\]$/,
    );
    expect(selected?.warnings).toEqual([expect.stringMatching(/^\.agents\/skills\/huge\/SKILL\.md: truncated to 800 tokens, shown \d+\/56001 chars$/)]);
    expect(indexLines(run)).toHaveLength(5);
    expect(run.outcomes[0]).toMatchObject({ outcome: 'included', tokens: run.entries.reduce((sum, entry) => sum + entry.tokens, 0) });
    expect(run.outcomes[0]?.tokens).toBeLessThanOrEqual(1_500);
  });
});
