/**
 * What a task asks for by name it gets: `$PDF` selects `pdf` (names are lowercase by the spec),
 * an explicitly selected skill written to the spec's guidance comes whole even with three
 * selected, and one that is still too long says where the rest is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { indexEntry, runSkills, skillFile } from './skills-support.ts';

const ROOT = '.agents/skills';
/** The size of anthropics/skills' docx SKILL.md body (19,182 characters), which three selected skills cut to 5,848. */
const docxLike = (name: string) => {
  const lines = Array.from({ length: 400 }, (_, i) => `${i + 1}. ${name}: do the careful thing number ${i + 1} with the document.`);
  return lines.join('\n').slice(0, 19_182);
};
const NOVEL = `${Array.from({ length: 2_000 }, (_, i) => `Line ${i + 1} of the novel.`).join('\n')}\n`;

describe('explicit selections', () => {
  let repo: GitFixture;
  beforeAll(() => {
    repo = createGitRepo();
    repo.write(`${ROOT}/pdf/SKILL.md`, skillFile('pdf', 'Fill and convert PDF forms.', 'Use pdftk.\n'));
    repo.write(`${ROOT}/docx/SKILL.md`, skillFile('docx', 'Edit Word documents.', `${docxLike('docx')}\n`));
    repo.write(`${ROOT}/xlsx/SKILL.md`, skillFile('xlsx', 'Edit spreadsheets.', `${docxLike('xlsx')}\n`));
    repo.write(`${ROOT}/pptx/SKILL.md`, skillFile('pptx', 'Edit slide decks.', `${docxLike('pptx')}\n`));
    repo.write(`${ROOT}/lint/SKILL.md`, skillFile('lint', 'Run the linter.'));
    repo.write(`${ROOT}/lint-copy/SKILL.md`, skillFile('Lint', 'Run the other linter.'));
    repo.write(`${ROOT}/novel/SKILL.md`, skillFile('novel', 'A skill far longer than any guidance.', NOVEL));
    repo.commitAll('skills');
  });
  afterAll(() => repo.remove());

  it('selects a skill whose name differs from $Name only by case, and says how to write it', async () => {
    const run = await runSkills(repo, { request: 'Convert it with $PDF, then echo $HOME.' });
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index', 'Selected skill: pdf']);
    expect(indexEntry(run)?.warnings).toContain('$PDF in the task selected skill "pdf" (skill names are lowercase; write $pdf)');
    // A $NAME that names no skill in any case is a shell variable, and says nothing.
    expect(indexEntry(run)?.warnings.join('\n')).not.toContain('HOME');
  });

  it('takes an exact match over a case variant, and warns instead of guessing between two variants', async () => {
    const exact = await runSkills(repo, { request: 'Use $Lint.' });
    expect(exact.entries.map((entry) => [entry.title, entry.source.path])).toContainEqual(['Selected skill: Lint', `${ROOT}/lint-copy/SKILL.md`]);
    const both = await runSkills(repo, { request: 'Use $LINT.' });
    expect(both.entries.map((entry) => entry.title)).toEqual(['Skills index']);
    expect(indexEntry(both)?.warnings).toContain(`$LINT in the task: 2 skills have this name but for case (${ROOT}/lint-copy/SKILL.md, ${ROOT}/lint/SKILL.md); none was selected, name one by its path`);
  });

  it('gives three selected skills of a real skill’s size their whole bodies', async () => {
    const run = await runSkills(repo, { request: 'Update the report: $docx, $xlsx and $pptx.' });
    const selected = run.entries.filter((entry) => entry.title.startsWith('Selected skill:'));
    expect(selected.map((entry) => entry.title)).toEqual(['Selected skill: docx', 'Selected skill: pptx', 'Selected skill: xlsx']);
    for (const entry of selected) {
      expect(entry.truncated).toBe(false);
      expect(entry.body).toBe(`${docxLike(entry.title.slice('Selected skill: '.length))}\n`);
    }
    expect(run.outcomes[0]).toMatchObject({ outcome: 'included' });
  });

  it('cuts a skill longer than the cap and says which line of its SKILL.md to read on from', async () => {
    const run = await runSkills(repo, { request: 'Read $novel.' });
    const novel = run.entries.find((entry) => entry.title === 'Selected skill: novel');
    expect(novel?.truncated).toBe(true);
    const hint = /\[The rest of this skill is in \.agents\/skills\/novel\/SKILL\.md \((\d+) lines\): read it from line (\d+) before following the instructions above\.\]$/.exec(novel?.body ?? '');
    expect(hint).not.toBeNull();
    const [, total, from] = hint ?? [];
    const file = skillFile('novel', 'A skill far longer than any guidance.', NOVEL).split('\n');
    expect(Number(total)).toBe(file.length);
    // The line named is the one the cut fell in: its start was shown, the next line was not.
    const shown = (novel?.body ?? '').split('\n[… truncated by groundwork:')[0] ?? '';
    const cutLine = file[Number(from) - 1] ?? '';
    const lastShown = shown.split('\n').at(-1) ?? '';
    expect(cutLine.startsWith(lastShown)).toBe(true);
    expect(shown).not.toContain(file[Number(from)] ?? 'never');
  });
});
