import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { runCli } from './cli-support.ts';
import { indexEntry, runSkills, skillFile } from './skills-support.ts';

const ROOT = '.agents/skills';
const INSTRUCTIONS = '# Release notes\n\nRun scripts/collect.sh, then follow references/api.md.\n';
const HEADER = (dir: string) => `Files bundled with this skill in ${dir}/ (not loaded; paths relative to it, read one when the instructions call for it):`;

describe('files bundled with a selected skill', () => {
  let repo: GitFixture;
  let skillCount = 0;

  beforeAll(() => {
    repo = createGitRepo();
    const write = (path: string, content: string | Uint8Array) => repo.write(path, content);
    write(`${ROOT}/release-notes/SKILL.md`, skillFile('release-notes', 'Draft release notes.', INSTRUCTIONS));
    write(`${ROOT}/release-notes/scripts/collect.sh`, 'git log --oneline\n');
    write(`${ROOT}/release-notes/references/api.md`, '# API\n');
    write(`${ROOT}/release-notes/references/a/b/c/deep.md`, 'Four levels down.\n');
    write(`${ROOT}/release-notes/assets/logo.png`, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
    repo.symlink('collect.sh', `${ROOT}/release-notes/scripts/link.sh`);
    write(`${ROOT}/many/SKILL.md`, skillFile('many', 'Bundles fifty files.'));
    for (let i = 0; i < 50; i++) write(`${ROOT}/many/files/f${String(i).padStart(2, '0')}.txt`, `${i}\n`);
    write(`${ROOT}/навык/SKILL.md`, skillFile('навык', 'A skill with a Russian name.', 'Use the template.\n'));
    write(`${ROOT}/навык/assets/шаблон.md`, 'Template.\n');
    write(`${ROOT}/lonely/SKILL.md`, skillFile('lonely', 'Bundles nothing.', 'Just this.\n'));
    skillCount = 4;
    repo.commitAll('skills');
    // A gitlink entry is all a submodule is in the tree.
    const head = repo.git('rev-parse', 'HEAD');
    repo.git('update-index', '--add', '--cacheinfo', `160000,${head},${ROOT}/release-notes/vendor/tool`);
    repo.git('commit', '--quiet', '-m', 'submodule');
  });
  afterAll(() => repo.remove());

  it('lists bundled files by path after the instructions, links and submodules as such, reading none of them', async () => {
    const run = await runSkills(repo, { request: 'Use $release-notes.' });
    const selected = run.entries.find((entry) => entry.title === 'Selected skill: release-notes');
    expect(selected?.body).toBe(
      [
        INSTRUCTIONS.trimEnd(),
        '',
        HEADER(`${ROOT}/release-notes`),
        '- assets/logo.png',
        '- references/a/b/ (directory, not listed: deeper than 3 levels)',
        '- references/api.md',
        '- scripts/collect.sh',
        '- scripts/link.sh (symlink)',
        '- vendor/tool (submodule)',
      ].join('\n'),
    );
    expect(selected?.warnings).toEqual([]);
    // One read per SKILL.md for the index, none for the bundled files.
    expect(run.calls.read).toBe(skillCount);
    expect(run.outcomes[0]).toMatchObject({ outcome: 'included' });
  });

  it('gives the same listing on every run', async () => {
    const first = await runSkills(repo, { request: '$release-notes and $many' });
    const second = await runSkills(repo, { request: '$many and $release-notes' });
    expect(second.entries.map((entry) => entry.body)).toEqual(first.entries.map((entry) => entry.body));
  });

  it('bounds the lines and counts the rest', async () => {
    const run = await runSkills(repo, { request: '$many', config: { maxBundledFiles: 10 } });
    const lines = run.entries.find((entry) => entry.title === 'Selected skill: many')?.body.split('\n') ?? [];
    expect(lines.slice(lines.indexOf(HEADER(`${ROOT}/many`)) + 1)).toEqual([...Array.from({ length: 10 }, (_, i) => `- files/f0${i}.txt`), '+40 more under files/']);
  });

  it('bounds the depth it lists, and lists nothing when maxBundledFiles is 0', async () => {
    const shallow = await runSkills(repo, { request: '$release-notes', config: { maxBundledDepth: 1 } });
    const body = shallow.entries.find((entry) => entry.title === 'Selected skill: release-notes')?.body ?? '';
    expect(body.slice(body.indexOf(HEADER(`${ROOT}/release-notes`)))).toBe(
      [HEADER(`${ROOT}/release-notes`), ...['assets', 'references', 'scripts', 'vendor'].map((dir) => `- ${dir}/ (directory, not listed: deeper than 1 level)`)].join('\n'),
    );
    const before = await runSkills(repo, { request: '$release-notes', config: { maxBundledFiles: 0 } });
    expect(before.entries.find((entry) => entry.title === 'Selected skill: release-notes')?.body).toBe(INSTRUCTIONS);
    expect(before.calls.list).toBeLessThan(shallow.calls.list);
  });

  it('shortens the listing to half of a small share before it cuts the instructions', async () => {
    const run = await runSkills(repo, { request: '$many', config: { maxSelectedTokens: 120 } });
    const selected = run.entries.find((entry) => entry.title === 'Selected skill: many');
    expect(selected?.tokens).toBeLessThanOrEqual(120);
    expect(selected?.body).toContain('Instructions for many.');
    expect(selected?.body).toMatch(/\n\+\d+ more under files\/$/);
    expect(selected?.truncated).toBe(false);
  });

  it('adds no listing to a skill that bundles nothing', async () => {
    const run = await runSkills(repo, { request: '$lonely' });
    expect(run.entries.find((entry) => entry.title === 'Selected skill: lonely')?.body).toBe('Just this.\n');
  });

  it('selects a Unicode-named skill with $name and lists its files, through the CLI', async () => {
    const cli = await runCli(['--repo', repo.dir, '--task', 'Fill the form with $навык.', '--skill', 'cafe\u0301']);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('title="Selected skill: навык"');
    expect(cli.stdout).toContain(`Use the template.\n\n${HEADER(`${ROOT}/навык`)}\n- assets/шаблон.md`);
    expect(cli.stderr).toContain('warning: skills: skill "café" selected for the task: no such skill in the index');
    expect(indexEntry(await runSkills(repo))?.body).toContain(`- навык: A skill with a Russian name. (${ROOT}/навык/SKILL.md)`);
  });
});
