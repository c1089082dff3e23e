/**
 * sources/github/graphql-answer reads a read-ahead's answer by hand before its zod schemas (issue
 * 56): whatever the hand takes, the schema takes too, and gives the same values; a well-formed
 * answer is taken by hand outright. Generated entries, answers and commits, each field right, of
 * another type, null, absent or at its bounds, entries nested as walks nest them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerSchema, answerByHand, CommitSchema, commitByHand, parseReadAhead, RawEntrySchema, rawEntryByHand } from '../../src/sources/github/graphql-answer.ts';

const OID = 'a'.repeat(40);
const odd = fc.constantFrom<unknown>(null, undefined, 0, -1, 1.5, 2 ** 53, Number.NaN, '', 'x', true, [], {}, Object.create({ inherited: 1 }), new Date(0));
const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: odd });

const { entry } = fc.letrec<{ entry: Record<string, unknown> }>((tie) => ({
  entry: fc.record(
    {
      name: maybe(fc.constantFrom('AGENTS.md', 'src', '..', 'a/b', '')),
      type: maybe(fc.constantFrom('blob', 'tree', 'commit', 'tag')),
      mode: maybe(fc.constantFrom(33188, 40960, 16384, 57344, -0, 2 ** 53 - 1)),
      oid: maybe(fc.constant(OID)),
      object: fc.oneof(
        { weight: 1, arbitrary: odd },
        {
          weight: 4,
          arbitrary: fc.record(
            {
              entries: fc.oneof({ weight: 1, arbitrary: odd }, { weight: 2, arbitrary: fc.array(tie('entry'), { maxLength: 3 }) }),
              oid: maybe(fc.constant(OID)),
              byteSize: maybe(fc.constantFrom(0, -0, 12, 2 ** 40)),
              isBinary: maybe(fc.boolean()),
              isTruncated: maybe(fc.boolean()),
              text: maybe(fc.constantFrom('# Rules\n', '')),
              extra: fc.constant('kept out by the schema'),
            },
            { requiredKeys: [] },
          ),
        },
      ),
      __typename: fc.constant('TreeEntry'),
    },
    { requiredKeys: [] },
  ),
}));

/** What the code reads of an entry, whichever way it was taken. */
function read(value: unknown): unknown {
  const raw = value as { name: string; type: string; mode: number; oid: string; object?: Record<string, unknown> | null };
  const object = raw.object;
  return {
    name: raw.name,
    type: raw.type,
    mode: raw.mode,
    oid: raw.oid,
    object:
      object === undefined || object === null
        ? object
        : { entries: Array.isArray(object['entries']) ? object['entries'].map(read) : object['entries'], oid: object['oid'], byteSize: object['byteSize'], isBinary: object['isBinary'], isTruncated: object['isTruncated'], text: object['text'] },
  };
}

const well = { name: 'AGENTS.md', type: 'blob', mode: 33188, oid: OID, object: { oid: OID, byteSize: 8, isBinary: false, isTruncated: false, text: '# Rules\n' } };
const walk = { name: 'packages', type: 'tree', mode: 16384, oid: OID, object: { entries: [{ name: 'app', type: 'tree', mode: 16384, oid: OID, object: { entries: [well] } }] } };

describe('a read-ahead answer read by hand', () => {
  it('takes a well-formed entry, walk, answer and commit by hand', () => {
    expect(rawEntryByHand(well)).toBe(true);
    expect(rawEntryByHand(walk)).toBe(true);
    const commit = { __typename: 'Commit', oid: 'b'.repeat(40), e0: well, e1: null };
    const data = { rateLimit: { cost: 1, remaining: 4999, resetAt: '2026-12-08T03:00:00Z', used: 1 }, repository: { object: commit } };
    expect(answerByHand(data)?.data).toEqual(AnswerSchema.parse(data));
    expect(commitByHand(commit)?.data).toBe(commit);
    const parsed = parseReadAhead(data, { root: false, dirs: [], files: [{ alias: 'e0', path: 'AGENTS.md' }, { alias: 'e1', path: 'CLAUDE.md' }], walks: [] });
    expect(parsed).toMatchObject({ status: 'ok', commit: 'b'.repeat(40), texts: [{ oid: OID, byteSize: 8, text: '# Rules\n' }], tree: { absent: ['CLAUDE.md'] } });
  });

  it('takes no entry the schema refuses, and reads the same values from those it takes', () => {
    let taken = 0;
    fc.assert(
      fc.property(entry, (value) => {
        if (!rawEntryByHand(value)) return;
        taken++;
        const parsed = RawEntrySchema.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(read(value)).toEqual(read(parsed.data));
      }),
      { numRuns: 4000 },
    );
    // The property holds over entries the hand takes, not only over refusals.
    expect(taken).toBeGreaterThan(100);
  });

  it('takes no answer or commit the schemas refuse, and gives what they give', () => {
    const limit = fc.oneof(odd, fc.record({ cost: maybe(fc.constantFrom(1, 0)), remaining: maybe(fc.constant(4999)), resetAt: maybe(fc.constant('2026-12-08T03:00:00Z')), used: fc.constant(1) }, { requiredKeys: [] }));
    const target = fc.oneof(odd, fc.record({ __typename: maybe(fc.constantFrom('Commit', 'Tag', 'Tree')), oid: maybe(fc.constantFrom('c'.repeat(40), 'C'.repeat(40), 'c'.repeat(39))), root: fc.constant({ oid: OID, entries: [] }) }, { requiredKeys: [] }));
    const object = fc.oneof(odd, fc.record({ __typename: maybe(fc.constantFrom('Commit', 'Tag')), target, oid: fc.constant('c'.repeat(40)) }, { requiredKeys: [] }));
    const answer = fc.record({ rateLimit: limit, repository: fc.oneof(odd, fc.record({ object }, { requiredKeys: [] })) }, { requiredKeys: [] });
    let answers = 0;
    let commits = 0;
    fc.assert(
      fc.property(answer, target, (data, commit) => {
        const hand = answerByHand(data);
        if (hand) {
          answers++;
          const parsed = AnswerSchema.safeParse(data);
          expect(parsed.success).toBe(true);
          expect(hand.data).toEqual(parsed.data);
        }
        const at = commitByHand(commit);
        if (at) {
          commits++;
          const parsed = CommitSchema.safeParse(commit);
          expect(parsed.success).toBe(true);
          expect(at.data).toEqual(parsed.data);
        }
      }),
      { numRuns: 4000 },
    );
    expect(answers).toBeGreaterThan(50);
    expect(commits).toBeGreaterThan(50);
  });
});
