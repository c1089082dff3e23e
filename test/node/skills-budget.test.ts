import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/context/tokens.ts';
import { MIN_DESCRIPTION_CHARS } from '../../src/providers/skills/index-entry.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { indexEntry, indexLines, runSkills, skillFile } from './skills-support.ts';

const NAMES = Array.from({ length: 12 }, (_, i) => `skill-${String(i).padStart(2, '0')}`);
const FAMILY = '👩‍👩‍👧';

const graphemeCount = (text: string) => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].length;

/** The description part of an index line. */
function description(line: string): string {
  return line.replace(/^- [^:]+: /, '').replace(/ \([^)]*\)$/, '');
}

describe('skills index over its budget', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    for (const name of NAMES) {
      const text = name === 'skill-03' ? `${FAMILY} 家族 `.repeat(40) : `${name} does one careful thing and explains it at length. `.repeat(6);
      const body = name === 'skill-05' ? 'Follow this step carefully. '.repeat(500) : undefined;
      repo.write(`.agents/skills/${name}/SKILL.md`, skillFile(name, text.trim(), body));
    }
    repo.commitAll('many skills');
  });
  afterAll(() => repo.remove());

  it('fits without change when the budget allows', async () => {
    const run = await runSkills(repo, { budget: 10_000 });
    expect(indexLines(run)).toHaveLength(NAMES.length);
    expect(indexEntry(run)?.warnings).toEqual([]);
    expect(indexEntry(run)?.body).not.toContain('…');
  });

  it('shortens every long description first, with an ellipsis, and keeps every skill', async () => {
    const run = await runSkills(repo, { budget: 700 });
    const lines = indexLines(run);
    expect(lines.map((line) => line.slice(2, 10))).toEqual(NAMES);
    const cap = Number(/shortened to at most (\d+) characters/.exec(indexEntry(run)?.warnings.join('\n') ?? '')?.[1]);
    expect(cap).toBeGreaterThanOrEqual(MIN_DESCRIPTION_CHARS);
    expect(indexEntry(run)?.warnings).toEqual([`skills index: descriptions shortened to at most ${cap} characters to fit 700 tokens`]);
    for (const line of lines) {
      expect(description(line).endsWith('…')).toBe(true);
      expect(graphemeCount(description(line))).toBeLessThanOrEqual(cap);
    }
    // The emoji family is one grapheme: a cut never leaves a dangling joiner or half a pair.
    const family = description(lines[3] ?? '');
    expect(family.startsWith(FAMILY)).toBe(true);
    expect(family).not.toMatch(/\u200d…$|[\uD800-\uDBFF]…$/);
    expect(countTokens(indexEntry(run)?.body ?? '')).toBeLessThanOrEqual(700);
    expect(run.outcomes[0]).toMatchObject({ outcome: 'included' });
    expect(indexEntry(run)?.truncated).toBe(false);
  });

  it('then drops skills from the end of the name order when the task matches none of them, and lists the dropped names', async () => {
    const run = await runSkills(repo, { budget: 200 });
    const lines = indexLines(run);
    const kept = lines.map((line) => line.slice(2, 10));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(NAMES.slice(0, kept.length));
    for (const line of lines) expect(graphemeCount(description(line))).toBeLessThanOrEqual(MIN_DESCRIPTION_CHARS);
    expect(indexEntry(run)?.warnings).toEqual([
      `skills index: descriptions shortened to at most ${MIN_DESCRIPTION_CHARS} characters to fit 200 tokens`,
      `skills index: ${NAMES.length - kept.length} of ${NAMES.length} skills left out to fit 200 tokens, keeping those that best match the task (its request and focus paths against name and description): ${NAMES.slice(kept.length).join(', ')}`,
    ]);
    expect(countTokens(indexEntry(run)?.body ?? '')).toBeLessThanOrEqual(200);
  });

  it('keeps the index its reserved share when a selected body is long', async () => {
    const run = await runSkills(repo, { budget: 700, request: 'use $skill-05', config: { minIndexTokens: 350 } });
    expect(run.entries.map((entry) => entry.title)).toEqual(['Skills index', 'Selected skill: skill-05']);
    expect(run.entries[1]?.truncated).toBe(true);
    expect(run.entries[1]?.tokens).toBeLessThanOrEqual(350);
    expect(indexLines(run)).toHaveLength(NAMES.length);
    expect(run.entries.reduce((sum, entry) => sum + entry.tokens, 0)).toBeLessThanOrEqual(700);
    expect(run.outcomes[0]?.reason).toBeUndefined();
  });

  it('marks the index commit-stable when a selection leaves it as every task gets it, task-dependent when it had to shrink', async () => {
    const plain = await runSkills(repo, { budget: 10_000 });
    const small = await runSkills(repo, { budget: 10_000, request: 'use $skill-00' });
    expect(indexEntry(small)?.body).toBe(indexEntry(plain)?.body);
    expect([indexEntry(plain)?.stability, indexEntry(small)?.stability]).toEqual(['commit', 'commit']);
    expect(small.entries[1]).toMatchObject({ title: 'Selected skill: skill-00', stability: 'task' });

    const squeezed = await runSkills(repo, { budget: 700, request: 'use $skill-05', config: { minIndexTokens: 350 } });
    expect(indexEntry(squeezed)?.body).not.toBe(indexEntry(await runSkills(repo, { budget: 700 }))?.body);
    expect(indexEntry(squeezed)?.stability).toBe('task');
  });

  it('gives the same index on every run', async () => {
    const bodies = new Set<string>();
    for (let i = 0; i < 5; i++) bodies.add(indexEntry(await runSkills(repo, { budget: 200 }))?.body ?? '');
    expect(bodies.size).toBe(1);
  });
});
