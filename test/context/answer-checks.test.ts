/**
 * The runner's checks of a provider's answer (context/answer-checks) read a well-formed answer by
 * hand (context/answer-checks-by-hand) and leave the rest to the zod schemas. Held here to what the schemas alone answer (the
 * runner's checks before the hand reading: the result's schema, then each entry and verdict by
 * its own) over generated answers: every field valid, missing, undefined, of the wrong type, at
 * and past its bounds, with keys the schema does not know, in objects that are not plain. Equal
 * means the same items kept, key for key in the same order (undefined keys too), and the same
 * refusals word for word. And a well-formed answer builds and runs no schema at all.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerResultSchema, checkAnswer, type AnswerCheck } from '../../src/context/answer-checks.ts';
import { EntrySchema } from '../../src/context/entry.ts';
import { RuleVerdictInputSchema } from '../../src/context/rule-verdict.ts';
import { describeIssues, fieldPath } from '../../src/context/zod-issues.ts';
import type * as z from 'zod';

/** The checks as the runner made them before: the schemas alone. */
function bySchemas(value: unknown): AnswerCheck {
  const parsed = AnswerResultSchema.safeParse(Array.isArray(value) ? { entries: value } : value);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error, '') };
  const each = <S extends z.ZodType>(schema: S, raw: readonly unknown[], label: string) => {
    const valid: z.output<S>[] = [];
    const invalid: string[] = [];
    raw.forEach((candidate, index) => {
      const item = schema.safeParse(candidate);
      if (item.success) valid.push(item.data);
      else invalid.push(item.error.issues.map((issue) => `${fieldPath(`${label}[${index}]`, issue.path)}: ${issue.message}`).join(', '));
    });
    return { valid, invalid };
  };
  const entries = each(EntrySchema, parsed.data.entries, 'entries');
  const verdicts = each(RuleVerdictInputSchema, parsed.data.verdicts, 'verdicts');
  return { ok: true, entries: entries.valid, verdicts: verdicts.valid, invalidEntries: entries.invalid, invalidVerdicts: verdicts.invalid, notes: parsed.data.notes, notices: parsed.data.notices };
}

/** Key order and keys held as undefined count: JSON alone would hide both. */
function exact(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (item === undefined ? '<undefined>' : item));
}

/** A small seeded generator, so a failure names a case that comes back. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { chance: (p: number) => next() < p, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

const MISSING = Symbol('missing');
const COMMIT = 'a'.repeat(40);
const NOT_PLAIN = new (class Thing {
  uri = 'repo:x';
})();
const BARE = Object.assign(Object.create(null) as object, { uri: 'repo:bare', path: 'AGENTS.md' });

/** Candidate values per field: valid ones first, then the ones a schema refuses or reads its own way. */
const ENTRY_FIELDS: Record<string, readonly unknown[]> = {
  title: ['AGENTS.md', 't', 'x'.repeat(200), MISSING, undefined, '', 'x'.repeat(201), 3, null],
  body: ['Run the tests.', '', MISSING, undefined, 5, ['a']],
  source: [
    { uri: 'repo:AGENTS.md', path: 'AGENTS.md', revision: COMMIT, blob: 'b'.repeat(40) },
    { uri: 'repo:x', revision: COMMIT },
    { uri: 'repo:x' },
    { uri: 'repo:x', path: undefined, revision: undefined, blob: undefined },
    { uri: 'repo:x', blob: 'c'.repeat(64), extra: true },
    { revision: COMMIT, uri: 'repo:reordered', path: 'p' },
    BARE,
    NOT_PLAIN,
    MISSING,
    { uri: '' },
    { uri: 'repo:x', path: '' },
    { uri: 'repo:x', revision: 'A'.repeat(40) },
    { uri: 'repo:x', blob: 'd'.repeat(41) },
    'repo:x',
    null,
  ],
  freshness: ['pinned', 'snapshot', 'volatile', MISSING, 'stale', undefined],
  reviewBy: [MISSING, MISSING, '2026-12-31', '2024-02-29', undefined, '2023-02-29', '2026-13-01', '2026-1-01', 20261231],
  warnings: [MISSING, [], ['one', 'two'], undefined, ['one', 2], 'one'],
  truncated: [MISSING, true, false, undefined, 'yes', 0],
  stability: [MISSING, 'commit', 'task', undefined, 'turn'],
  appliesTo: [MISSING, { paths: ['.', 'src'], total: 2 }, { paths: [], total: 0 }, { paths: Array.from({ length: 16 }, (_, i) => `p${i}`), total: 40 }, undefined, { paths: Array.from({ length: 17 }, (_, i) => `p${i}`), total: 17 }, { paths: [''], total: 1 }, { paths: ['x'.repeat(1025)], total: 1 }, { paths: ['a'], total: -1 }, { paths: ['a'], total: 1.5 }, { paths: ['a'], total: 2 ** 60 }, { paths: ['a'] }, { paths: ['a'], total: 1, extra: 1 }],
  why: [MISSING, 'Claude Code reads CLAUDE.md instead', undefined, '', 'y'.repeat(400), 'y'.repeat(401), 7],
  extra: [MISSING, MISSING, 'kept out', { nested: true }],
};

const CELL = { client: 'codex', cell: 'loaded', detail: '' };
const VERDICT_FIELDS: Record<string, readonly unknown[]> = {
  path: ['AGENTS.md', 'p'.repeat(600), MISSING, '', 4],
  blob: [MISSING, 'e'.repeat(40), 'f'.repeat(64), undefined, 'g'.repeat(40)],
  format: ['agents-md', 'x'.repeat(64), MISSING, '', 'x'.repeat(65)],
  verdict: ['applied', 'indexed', 'not-applied', 'shadowed', 'loaded-by-client', 'ignored', MISSING],
  reason: ['on the chain', '', 'r'.repeat(500), MISSING, null],
  clients: [
    MISSING,
    [CELL, { client: 'cursor', cell: 'cut', detail: 'd'.repeat(200) }],
    [],
    undefined,
    Array.from({ length: 7 }, () => CELL),
    [{ ...CELL, client: 'vim' }],
    [{ ...CELL, cell: 'maybe' }],
    [{ ...CELL, detail: 'd'.repeat(201) }],
    [{ ...CELL, extra: 1 }],
    [{ cell: 'lazy', detail: 'when read', client: 'gemini-cli' }],
    'codex',
  ],
  entry: [MISSING, 'AGENTS.md', undefined, 3],
  found: [MISSING, { shared: true }],
};

function generate(fields: Record<string, readonly unknown[]>, rng: ReturnType<typeof random>): unknown {
  const out: Record<string, unknown> = {};
  // Mostly each field's first (valid) values, so well-formed items are common enough to check.
  const keys = Object.keys(fields);
  for (const key of rng.chance(0.3) ? [...keys].reverse() : keys) {
    const values = fields[key] ?? [];
    const value = rng.chance(0.9) ? rng.pick(values.slice(0, 3)) : rng.pick(values);
    if (value !== MISSING) out[key] = value;
  }
  return out;
}

const NOTES: readonly unknown[] = [MISSING, [], ['a note'], undefined, ['a', 3], 'a note'];
const NOTICES: readonly unknown[] = [
  MISSING,
  [],
  [{ text: 'left out', stability: 'commit' }],
  Array.from({ length: 8 }, () => ({ text: 'n', stability: 'task', extra: 1 })),
  undefined,
  Array.from({ length: 9 }, () => ({ text: 'n', stability: 'task' })),
  [{ text: '', stability: 'task' }],
  [{ text: 'x'.repeat(4001), stability: 'task' }],
  [{ text: 'n', stability: 'turn' }],
];

function answer(rng: ReturnType<typeof random>): unknown {
  const entries = Array.from({ length: rng.pick([0, 1, 2, 4]) }, () => (rng.chance(0.05) ? rng.pick([null, 'entry', NOT_PLAIN]) : generate(ENTRY_FIELDS, rng)));
  if (rng.chance(0.15)) return entries;
  const out: Record<string, unknown> = {};
  const entriesValue = rng.chance(0.95) ? entries : rng.pick([MISSING, 'entries', undefined]);
  if (entriesValue !== MISSING) out.entries = entriesValue;
  for (const [key, values] of [
    ['notes', NOTES],
    ['notices', NOTICES],
    ['verdicts', [Array.from({ length: rng.pick([0, 1, 3]) }, () => generate(VERDICT_FIELDS, rng)), MISSING, undefined, 'verdicts']],
  ] as const) {
    const typical = key === 'verdicts' ? values[0] : rng.pick(values.slice(0, 3));
    const value = rng.chance(0.7) ? typical : rng.pick(values);
    if (value !== MISSING) out[key] = value;
  }
  return rng.chance(0.03) ? rng.pick([null, 'answer', NOT_PLAIN]) : out;
}

describe('a provider answer checked by hand, then by the schemas (issue 56)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives what the schemas alone give, over 4,000 generated answers, taking most well-formed items by hand', () => {
    const rng = random(56);
    const parses = vi.spyOn(EntrySchema, 'safeParse');
    let items = 0;
    let accepted = 0;
    for (let i = 0; i < 4_000; i++) {
      const value = answer(rng);
      const mine = checkAnswer(value);
      const theirs = bySchemas(value);
      expect(exact(mine), `case ${i}: ${exact(value)}`).toBe(exact(theirs));
      if (theirs.ok) {
        items += theirs.entries.length + theirs.invalidEntries.length;
        accepted += theirs.entries.length;
      }
    }
    // The generator makes both kinds in number, and the hand check took the well-formed entries:
    // the schema saw (in checkAnswer; bySchemas calls it for every item) far fewer than all.
    expect(items).toBeGreaterThan(2_000);
    expect(accepted).toBeGreaterThan(items / 4);
    expect(accepted).toBeLessThan(items);
    const byHand = items * 2 - parses.mock.calls.length;
    expect(byHand).toBeGreaterThan(accepted / 2);
  });

  it('checks a well-formed answer without a schema (a review date aside), and words a refused item as the schema does', () => {
    const schemas = [vi.spyOn(AnswerResultSchema, 'safeParse'), vi.spyOn(EntrySchema, 'safeParse'), vi.spyOn(RuleVerdictInputSchema, 'safeParse')];
    const entry = { title: 'AGENTS.md', body: 'Run the tests.', source: { uri: 'repo:AGENTS.md', path: 'AGENTS.md', revision: COMMIT }, freshness: 'pinned', stability: 'commit', appliesTo: { paths: ['.'], total: 1 } };
    const verdict = { path: 'AGENTS.md', format: 'agents-md', verdict: 'applied', reason: 'on the chain', clients: [CELL], entry: 'AGENTS.md', found: { shared: true } };
    const good = checkAnswer({ entries: [entry, { ...entry, title: 'memory', reviewBy: '2027-01-31', freshness: 'snapshot' }], verdicts: [verdict], notices: [{ text: 'one more', stability: 'task' }] });
    // The memory entry's review date is the schema's to check (its date format): the only parse.
    expect(schemas.map((spy) => spy.mock.calls.length)).toEqual([0, 1, 0]);
    expect(good).toMatchObject({ ok: true, invalidEntries: [], invalidVerdicts: [], notes: [] });
    expect(good.ok && good.entries[0]).toEqual({ ...entry, warnings: [], truncated: false });
    expect(good.ok && good.verdicts).toEqual([{ path: 'AGENTS.md', format: 'agents-md', verdict: 'applied', reason: 'on the chain', clients: [CELL], entry: 'AGENTS.md' }]);

    const bad = checkAnswer([entry, { ...entry, source: { uri: 'repo:x' } }]);
    expect(schemas[1]?.mock.calls.length).toBe(2);
    expect(bad).toMatchObject({ ok: true, invalidEntries: ['entries[1].source.revision: a pinned entry needs source.revision'] });
    expect(checkAnswer({ entries: 'none' })).toEqual({ ok: false, reason: 'entries: Invalid input: expected array, received string' });
  });
});
