/**
 * What each provider's budget cut, as the inspector lists it: skills left out of the index, a
 * file cut to fit, material not given (with the notice that told the model), each linked to
 * the section that shows it.
 */
import { describe, expect, it } from 'vitest';
import type { SectionModel } from '../../src/inspector/anatomy.ts';
import { providerBudgets } from '../../src/inspector/budgets.ts';
import type { InspectedTurn } from '../../src/tasks/inspection.ts';

const COMMIT = 'a'.repeat(40);
const source = (label: string) => ({ label, uri: `file:///repo/${label}` });
const body = { text: '', cut: 0 };

const sections: SectionModel[] = [
  { kind: 'notice', anchor: 't0-s0', provider: 'rules', body },
  {
    kind: 'context',
    anchor: 't0-s1',
    provider: 'skills',
    category: 'skills',
    title: 'Skills index',
    source: source(`.agents/skills@${COMMIT}`),
    freshness: 'pinned',
    truncated: false,
    entry: { chars: 10, stability: 'task', warnings: ['skills index: 2 of 9 skills left out to fit 400 tokens, keeping those that best match the task: pdf, docx', 'x/SKILL.md: name "X" must be lowercase [name-lowercase]'] },
    body,
  },
  { kind: 'context', anchor: 't0-s2', provider: 'memory', category: 'memory', title: 'fact k_1', source: source('https://wiki.test'), freshness: 'snapshot', truncated: true, entry: { chars: 5, stability: 'task', warnings: [] }, body },
];

const turn: Pick<InspectedTurn, 'turn' | 'providers' | 'entries'> = {
  turn: 0,
  entries: [],
  providers: [
    {
      name: 'rules',
      category: 'rules',
      outcome: 'timed-out',
      reason: 'exceeded 5000 ms',
      chars: 0,
      tokens: 0,
      durationMs: 5000,
      verdicts: [
        { path: '.github/instructions/api.instructions.md', format: 'github-instructions', verdict: 'not-applied', reason: 'no focus path matched applyTo src/api/**' },
        { path: 'AGENTS.md', format: 'agents-md', verdict: 'applied', reason: 'directory chain of .' },
      ],
    },
    { name: 'skills', category: 'skills', outcome: 'included', chars: 10, tokens: 300, durationMs: 3 },
    { name: 'memory', category: 'memory', outcome: 'included', reason: 'dropped for the total budget of 24000 tokens: fact k_2', chars: 5, tokens: 2, durationMs: 1 },
  ],
};

describe('providerBudgets', () => {
  it('lists what each budget cut, linked to its section (rule files not applied to the Rule files verdicts), and the budget each provider had', () => {
    const settings = { layers: [], warnings: [], providers: [{ name: 'skills', enabled: true, budget: 400, config: {}, set: {} }] };
    const rows = providerBudgets(turn, settings, sections);
    expect(rows).toEqual([
      {
        provider: 'rules',
        category: 'rules',
        outcome: 'timed-out',
        tokens: 0,
        cuts: [
          { text: 'not applied: .github/instructions/api.instructions.md (no focus path matched applyTo src/api/**)', anchor: 'rule-files-0' },
          { text: 'not given: timed-out (exceeded 5000 ms)', anchor: 't0-s0' },
        ],
      },
      {
        provider: 'skills',
        category: 'skills',
        outcome: 'included',
        tokens: 300,
        budget: 400,
        cuts: [{ text: 'Skills index: skills index: 2 of 9 skills left out to fit 400 tokens, keeping those that best match the task: pdf, docx', anchor: 't0-s1' }],
      },
      {
        provider: 'memory',
        category: 'memory',
        outcome: 'included',
        tokens: 2,
        cuts: [
          { text: `fact k_1: cut to fit (https://wiki.test)`, anchor: 't0-s2' },
          { text: 'dropped for the total budget of 24000 tokens: fact k_2', anchor: undefined },
        ],
      },
    ]);
  });
});
