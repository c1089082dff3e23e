import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/context/runner.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { EDGE_CASES, REFERENCE_TESTS, type ReferenceCase } from './skills-reference-cases.ts';
import { indexEntry, indexLines, runSkills } from './skills-support.ts';

/**
 * Each case sits in its own folder of one real repository; a literal root names the case's
 * skill directory, as the reference's `validate(skill_dir)` names it. The verdict compared is
 * the set of rule ids in the provider's warnings (on the index entry, or in the outcome's
 * reason when nothing was indexed).
 */
const CASES = [...REFERENCE_TESTS, ...EDGE_CASES];
const folder = (i: number) => `cases/${String(i).padStart(2, '0')}`;
const rootOf = (testCase: ReferenceCase) => `${folder(CASES.indexOf(testCase))}/${testCase.skillDir}`;

/** Every warning the run reported, on the index entry or (when nothing was indexed) in the reason. */
function reported(run: RunResult): string {
  return [...(indexEntry(run)?.warnings ?? []), run.outcomes[0]?.reason ?? ''].join('\n');
}

function reportedRules(run: RunResult): string[] {
  return [...new Set(Array.from(reported(run).matchAll(/ \[([a-z]+(?:-[a-z]+)*)\](?:;|$)/gm), (match) => match[1] ?? ''))].sort();
}

/** Rules that keep a skill out of the index: it is not there, or it cannot be read usefully. */
const SKIPPING = new Set(['skill-dir-missing', 'skill-dir-not-a-directory', 'skill-file-missing', 'frontmatter-missing', 'frontmatter-unclosed', 'frontmatter-mapping', 'description-missing', 'description-string']);

describe('agreement with the Agent Skills reference validator (skills-ref)', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    CASES.forEach((testCase, i) => {
      repo.write(`${folder(i)}/CASE.txt`, `${testCase.name}\n`);
      for (const [path, text] of Object.entries(testCase.files)) repo.write(`${folder(i)}/${path}`, text);
      for (const [path, target] of Object.entries(testCase.links ?? {})) repo.symlink(target, `${folder(i)}/${path}`);
    });
    repo.commitAll('reference cases');
  });
  afterAll(() => repo.remove());

  it('ports every test of the reference test_validator.py', () => {
    expect(REFERENCE_TESTS).toHaveLength(21);
    expect(REFERENCE_TESTS.every((testCase) => testCase.groundwork === undefined)).toBe(true);
  });

  describe.each([
    ['reference test', REFERENCE_TESTS],
    ['edge case', EDGE_CASES],
  ] as const)('%s', (_kind, cases) => {
    it.each(cases.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
      const run = await runSkills(repo, { config: { roots: [rootOf(testCase)] } });
      const expected = [...new Set(testCase.groundwork ?? testCase.reference)].sort();
      expect(reportedRules(run)).toEqual(expected);
      // Every other problem is a warning: the skill stays in the index. YAML that does not parse is
      // a skip, YAML that strictyaml merely refuses is not; both are frontmatter-yaml.
      const unparsed = reported(run).includes('skipped: frontmatter is not valid YAML');
      expect(indexLines(run).length).toBe(expected.some((rule) => SKIPPING.has(rule)) || unparsed ? 0 : 1);
      if (testCase.indexedAs !== undefined) expect(indexLines(run)[0]).toMatch(new RegExp(`^- ${testCase.indexedAs}: `));
      for (const warning of indexEntry(run)?.warnings ?? []) expect(warning.startsWith(`${rootOf(testCase)}`)).toBe(true);
    });
  });

  it('agrees on all reference cases, and on every edge case but the three documented divergences', () => {
    const agreeing = (cases: readonly ReferenceCase[]) => cases.filter((testCase) => testCase.groundwork === undefined).length;
    expect(`${agreeing(REFERENCE_TESTS)} of ${REFERENCE_TESTS.length}`).toBe('21 of 21');
    expect(`${agreeing(EDGE_CASES)} of ${EDGE_CASES.length}`).toBe(`${EDGE_CASES.length - 3} of ${EDGE_CASES.length}`);
    for (const testCase of EDGE_CASES.filter((c) => c.groundwork !== undefined)) expect(testCase.divergence).toMatch(/\w/);
  });
});
