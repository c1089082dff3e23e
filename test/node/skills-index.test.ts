import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { assembleFirstTurn } from '../../src/context/turn.ts';
import { INDEX_HEADER } from '../../src/providers/skills/index-entry.ts';
import { createSkillsProvider } from '../../src/providers/skills/provider.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { indexEntry, indexLines, runSkills, skillFile, skillsTask } from './skills-support.ts';

const ROOT = '.agents/skills';

describe('skills index on a real repository', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write(`${ROOT}/release-notes/SKILL.md`, skillFile('release-notes', 'Draft release notes from merged pull requests.'));
    repo.write(`${ROOT}/release-notes/scripts/collect.sh`, 'git log --oneline\n');
    repo.write(`${ROOT}/lint/SKILL.md`, '---\nname: lint\ndescription: >\n  Run the linter\n  and fix what it reports.\nlicense: MIT\n---\nRun `npm run lint`.\n');
    repo.write(`${ROOT}/Bad_Name/SKILL.md`, skillFile('Bad_Name', 'Has a name the spec does not allow.'));
    repo.write(`${ROOT}/mismatch/SKILL.md`, skillFile('other-name', 'Declares a name unlike its directory.'));
    repo.write(`${ROOT}/no-description/SKILL.md`, '---\nname: no-description\n---\nBody without a description.\n');
    repo.write(`${ROOT}/broken-yaml/SKILL.md`, '---\nname: broken-yaml\ndescription: [never closed\n---\nBody.\n');
    repo.write(`${ROOT}/no-frontmatter/SKILL.md`, '# Just a heading\n\nNo frontmatter at all.\n');
    repo.write(`${ROOT}/emoji/SKILL.md`, skillFile('emoji', '🚀 Ship releases 🎉 — 发布说明を書く 👩‍👩‍👧'));
    repo.write(`${ROOT}/not-a-skill/README.md`, 'No SKILL.md here.\n');
    repo.write('.agents/README.md', 'Agent configuration.\n');
    repo.write('extra/custom/SKILL.md', skillFile('custom', 'Only found under a custom root.'));
    repo.write('tools/a/b/deep/SKILL.md', skillFile('deep', 'Three directories below tools.'));
    repo.commitAll('skills');
    // The snapshot is the commit: neither of these may appear.
    repo.write(`${ROOT}/lint/SKILL.md`, skillFile('lint', 'UNCOMMITTED DESCRIPTION'));
    repo.write(`${ROOT}/untracked/SKILL.md`, skillFile('untracked', 'UNTRACKED SKILL'));
  });
  afterAll(() => repo.remove());

  it('indexes every valid skill with name, description and location, sorted by name', async () => {
    const run = await runSkills(repo);
    expect(run.outcomes[0]).toMatchObject({ name: 'skills', category: 'skills', outcome: 'included' });
    expect(indexEntry(run)?.body.split('\n')[0]).toBe(INDEX_HEADER);
    expect(indexLines(run)).toEqual([
      `- Bad_Name: Has a name the spec does not allow. (${ROOT}/Bad_Name/SKILL.md)`,
      `- emoji: 🚀 Ship releases 🎉 — 发布说明を書く 👩‍👩‍👧 (${ROOT}/emoji/SKILL.md)`,
      `- lint: Run the linter and fix what it reports. (${ROOT}/lint/SKILL.md)`,
      `- other-name: Declares a name unlike its directory. (${ROOT}/mismatch/SKILL.md)`,
      `- release-notes: Draft release notes from merged pull requests. (${ROOT}/release-notes/SKILL.md)`,
    ]);
    expect(indexEntry(run)).toMatchObject({
      source: { uri: run.snapshot.uri(ROOT), path: ROOT, revision: run.commit },
      freshness: 'pinned',
      truncated: false,
    });
  });

  it('warns about an invalid name and a name unlike its directory, and keeps both skills', async () => {
    const warnings = indexEntry(await runSkills(repo))?.warnings ?? [];
    expect(warnings).toContain(`${ROOT}/Bad_Name/SKILL.md: name "Bad_Name" must be lowercase [name-lowercase]`);
    expect(warnings).toContain(`${ROOT}/Bad_Name/SKILL.md: name "Bad_Name" may contain only letters, digits and - [name-characters]`);
    expect(warnings).toContain(`${ROOT}/mismatch/SKILL.md: name "other-name" does not match its directory "mismatch" [name-directory]`);
  });

  it('skips a skill without a description or with unparseable YAML, naming its path', async () => {
    const run = await runSkills(repo);
    const warnings = indexEntry(run)?.warnings ?? [];
    expect(warnings).toContain(`${ROOT}/no-description/SKILL.md: skipped: frontmatter has no description [description-missing]`);
    expect(warnings).toContainEqual(expect.stringMatching(new RegExp(`^${escape(`${ROOT}/broken-yaml/SKILL.md: skipped: frontmatter is not valid YAML: `)}.+\\(line \\d+\\) \\[frontmatter-yaml\\]$`)));
    expect(warnings).toContain(`${ROOT}/no-frontmatter/SKILL.md: skipped: no YAML frontmatter (a --- block on the first line) with a description [frontmatter-missing]`);
    const body = indexEntry(run)?.body ?? '';
    for (const skipped of ['no-description', 'broken-yaml', 'no-frontmatter', 'not-a-skill']) expect(body).not.toContain(`${skipped}/`);
  });

  it('reads the committed tree only', async () => {
    const body = indexEntry(await runSkills(repo))?.body ?? '';
    expect(body).not.toContain('UNCOMMITTED');
    expect(body).not.toContain('UNTRACKED');
  });

  it('discovers skills under custom roots, including * and ** segments', async () => {
    const run = await runSkills(repo, { config: { roots: ['extra/*/', 'tools/**'] } });
    expect(indexLines(run)).toEqual([
      '- custom: Only found under a custom root. (extra/custom/SKILL.md)',
      '- deep: Three directories below tools. (tools/a/b/deep/SKILL.md)',
    ]);
    // Two roots share no directory, so the index names the repository root.
    expect(indexEntry(run)?.source).toEqual({ uri: run.snapshot.uri(''), revision: run.commit });
    expect(indexEntry(run)?.warnings).toEqual([]);
  });

  it('is empty, saying where it looked, when no root exists at the commit', async () => {
    const run = await runSkills(repo, { config: { roots: ['nowhere/*/'] } });
    expect(run.outcomes[0]).toEqual(expect.objectContaining({ outcome: 'empty', reason: 'no skills under nowhere/*/' }));
    expect(run.calls.read).toBe(0);
  });

  it('reports a root that is not a plain directory pattern as invalid config', async () => {
    const run = await runSkills(repo, { config: { roots: ['skill-*/'] } });
    expect(run.outcomes[0]).toMatchObject({ outcome: 'invalid', reason: expect.stringContaining('config.roots[0]: segment "skill-*" mixes * with a name') });
    expect(run.calls.list + run.calls.read).toBe(0);
  });

  it('renders the index as a labeled section of the first user message', async () => {
    const head = repo.git('rev-parse', 'HEAD');
    const agent = resolveAgent('explorer');
    if (!agent.ok) throw new Error(agent.error);
    const turn = await assembleFirstTurn({
      registry: createRegistry([createSkillsProvider()]),
      agent: agent.agent,
      available: ['repo:read'],
      task: skillsTask(repo, head),
      turn: 0,
      snapshot: createLocalGitSource(repo.dir).snapshot(head),
    });
    const user = turn.messages.find((message) => message.role === 'user')?.content ?? '';
    expect(user).toContain(`title="Skills index" source="${ROOT}@${head}"`);
    expect(user).toContain('- emoji: 🚀 Ship releases 🎉 — 发布说明を書く 👩‍👩‍👧');
    expect(turn.messages.filter((message) => message.role === 'system').map((m) => m.content).join('\n')).not.toContain('release-notes');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
