/**
 * An index over its budget keeps what the task needs: skills ranked by a BM25 match of the
 * request and the focus paths against name and description, deterministic, with the dropped
 * ones named; a ranking that changes the index makes it task-stable. Plus the ranking itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankSkills, taskWords, words } from '../../src/providers/skills/rank.ts';
import type { Skill } from '../../src/providers/skills/skill-index.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { indexEntry, indexLines, runSkills, skillFile } from './skills-support.ts';

/** Thirty skills of ordinary descriptions, and three a task could be about, late in name order. */
const FILLER = Array.from({ length: 30 }, (_, i) => `aa-helper-${String(i).padStart(2, '0')}`);
const SPECIFIC: Array<[string, string]> = [
  ['rate-limiting', 'Add or tune rate limiting on an HTTP endpoint, with tests for the limits.'],
  ['billing-invoices', 'Change how invoices are computed and rendered in the billing service.'],
  ['zz-docs', 'Write documentation pages for the website.'],
];

const names = (lines: readonly string[]) => lines.map((line) => line.replace(/^- ([^:]+):.*$/, '$1'));

describe('ranking the skills index when it cannot hold every skill', () => {
  let repo: GitFixture;
  beforeAll(() => {
    repo = createGitRepo();
    for (const name of FILLER) repo.write(`.agents/skills/${name}/SKILL.md`, skillFile(name, `Helps with chore number ${name.slice(-2)} of the repository's upkeep, step by step.`));
    for (const [name, description] of SPECIFIC) repo.write(`.agents/skills/${name}/SKILL.md`, skillFile(name, description));
    repo.write('services/billing/invoice.ts', 'export {};\n');
    repo.commitAll('many skills');
  });
  afterAll(() => repo.remove());

  it('keeps the skills the request is about, lists the kept ones in name order, and names every dropped one', async () => {
    const run = await runSkills(repo, { budget: 400, request: 'Add rate limiting to the login endpoint.' });
    const kept = names(indexLines(run));
    expect(kept).toContain('rate-limiting');
    expect(kept).toEqual([...kept].sort());
    const warning = indexEntry(run)?.warnings.find((text) => text.includes('left out'));
    const dropped = (warning ?? '').replace(/^.*: /, '').split(', ');
    expect(dropped.length + kept.length).toBe(FILLER.length + SPECIFIC.length);
    expect(new Set([...kept, ...dropped]).size).toBe(FILLER.length + SPECIFIC.length);
    expect(dropped).not.toContain('rate-limiting');
    expect(indexEntry(run)?.stability).toBe('task');
  });

  it('ranks by the focus paths too: a task touching services/billing keeps billing-invoices', async () => {
    const run = await runSkills(repo, { budget: 400, request: 'Fix the rounding bug.', focusPaths: ['services/billing/invoice.ts'] });
    expect(names(indexLines(run))).toContain('billing-invoices');
    expect(names(indexLines(run))).not.toContain('rate-limiting');
  });

  it('keeps a selected skill in the index whatever its score', async () => {
    const run = await runSkills(repo, { budget: 500, request: 'Add rate limiting, following $zz-docs.', config: { minIndexTokens: 250 } });
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index', 'Selected skill: zz-docs']);
    expect(indexEntry(run)?.warnings.some((text) => text.includes('skills left out'))).toBe(true);
    expect(names(indexLines(run))).toEqual(expect.arrayContaining(['rate-limiting', 'zz-docs']));
  });

  it('cuts by name order and stays commit-stable, byte for byte, when the request matches no skill', async () => {
    const plain = await runSkills(repo, { budget: 400, request: 'Tidy up.' });
    const other = await runSkills(repo, { budget: 400, request: 'Something unrelated entirely.' });
    expect(indexEntry(plain)?.body).toBe(indexEntry(other)?.body);
    expect(names(indexLines(plain))).toEqual([...FILLER, ...SPECIFIC.map(([name]) => name)].slice(0, indexLines(plain).length));
    expect([indexEntry(plain)?.stability, indexEntry(other)?.stability]).toEqual(['commit', 'commit']);
  });

  it('gives the same index for the same task on every run', async () => {
    const bodies = new Set<string>();
    for (let i = 0; i < 4; i++) bodies.add(indexEntry(await runSkills(repo, { budget: 400, request: 'Invoices in billing are wrong.' }))?.body ?? '');
    expect(bodies.size).toBe(1);
  });
});

describe('the lexical ranking', () => {
  const skill = (name: string, description: string): Skill => ({ name, description, path: `.agents/skills/${name}/SKILL.md` });
  const skills = [skill('changelog', 'Keep the changelog.'), skill('pdf', 'Fill and convert PDF forms.'), skill('release-notes', 'Draft release notes.'), skill('tests', 'Write the tests first.')];

  it('splits words the way code and paths write them, and drops function words and plurals', () => {
    expect(words('The parseHTTPRequest of src/api_server/RateLimits.ts')).toEqual(['parse', 'http', 'request', 'src', 'api', 'server', 'rate', 'limit', 'ts']);
    expect(taskWords('Fix it', ['docs/Release-Notes.md'])).toEqual(['fix', 'doc', 'release', 'note', 'md']);
  });

  it('puts the best match first and keeps the index order for ties', () => {
    expect(rankSkills(skills, taskWords('Draft the release notes for 2.0', [])).map((s) => s.name)).toEqual(['release-notes', 'changelog', 'pdf', 'tests']);
    expect(rankSkills(skills, taskWords('nothing here matches', [])).map((s) => s.name)).toEqual(['changelog', 'pdf', 'release-notes', 'tests']);
    // A name's words weigh more than a description's: `tests` is about tests, not `changelog`.
    expect(rankSkills([skill('changelog', 'Keep the changelog; mention tests.'), skill('tests', 'Run them.')], ['test']).map((s) => s.name)).toEqual(['tests', 'changelog']);
  });
});
