/**
 * Every CLI command reads providers' answers by hand before the zod schemas (cli/hand-checks,
 * imported by cli/zod-config, which each command imports first): a well-formed answer builds and
 * runs none of the schemas, a refused item is still worded by its schema. What the hand checks
 * take is held to the schemas' answers in test/context/answer-checks.
 */
import '../../src/cli/zod-config.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerResultSchema, checkAnswer } from '../../src/context/answer-checks.ts';
import { EntrySchema } from '../../src/context/entry.ts';
import { RuleVerdictInputSchema } from '../../src/context/rule-verdict.ts';

describe("the CLI's answer checks", () => {
  afterEach(() => vi.restoreAllMocks());

  it('take a well-formed answer without a schema, and leave a bad item to its schema', () => {
    const parses = [AnswerResultSchema, EntrySchema, RuleVerdictInputSchema].map((schema) => vi.spyOn(schema, 'safeParse'));
    const entry = { title: 'AGENTS.md', body: 'Run the tests.', source: { uri: 'repo:AGENTS.md', path: 'AGENTS.md' }, freshness: 'snapshot' };
    const verdict = { path: 'AGENTS.md', format: 'agents-md', verdict: 'applied', reason: 'on the chain', clients: [{ client: 'codex', cell: 'loaded', detail: '' }] };
    const good = checkAnswer({ entries: [entry], verdicts: [verdict] });
    expect(parses.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0]);
    expect(good).toMatchObject({ ok: true, entries: [{ ...entry, warnings: [], truncated: false, stability: 'task' }], verdicts: [verdict] });

    const bad = checkAnswer({ entries: [entry, { ...entry, title: '' }] });
    expect(parses.map((spy) => spy.mock.calls.length)).toEqual([0, 1, 0]);
    expect(bad).toMatchObject({ ok: true, invalidEntries: ['entries[1].title: Too small: expected string to have >=1 characters'] });
  });
});
