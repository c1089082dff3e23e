/**
 * cli/hooks/hook-input's two readings of a hook input, held to each other: the check by hand
 * takes exactly the inputs zod's schema of the same rules takes, with the same facts, key for key;
 * what it leaves, zod refuses, and the refusal is zod's. Over generated inputs for every agent's
 * every event: each field left out, null, of another type, at and past its bounds, holding NUL,
 * the wrong event name, and fields the agent adds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputByHand, inputSchema, readHookInput, type FieldRule, type HookInputSpec } from '../../src/cli/hooks/hook-input.ts';
import { HOOK_CLIENTS } from '../../src/cli/hooks/notice.ts';
import { HOOK_EVENTS } from '../../src/cli/hooks/protocol.ts';
import { HOOK_PROTOCOLS } from '../../src/cli/hooks/protocols.ts';
import { describeIssues } from '../../src/context/zod-issues.ts';

const SPECS: Array<[string, HookInputSpec]> = HOOK_CLIENTS.flatMap((client) => HOOK_EVENTS.flatMap((event) => {
  const spec = HOOK_PROTOCOLS[client].events[event];
  return spec ? [[`${client} ${event}`, spec.input] as [string, HookInputSpec]] : [];
}));

/** Values around a field's rule: good ones, and each way of breaking it. */
function valuesFor(rule: FieldRule): fc.Arbitrary<unknown> {
  const others = fc.constantFrom(undefined, null, 0, 7.5, -1, true, false, {}, [], ['a'], { a: 1 }, Number.POSITIVE_INFINITY, Number.NaN, '', 'x');
  switch (rule.type) {
    case 'literal':
      return fc.oneof({ arbitrary: fc.constant(rule.value), weight: 8 }, fc.constant(rule.value.toLowerCase()), fc.constant(`${rule.value} `), others);
    case 'number':
      return fc.oneof({ arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), weight: 8 }, others);
    case 'text': {
      const lengths = [0, 1, 2, 63, 64, 65, 255, 256, 257, 4_095, 4_096, 4_097].concat(rule.min ? [rule.min[0] - 1, rule.min[0]] : [], rule.max ? [rule.max[0] - 1, rule.max[0], rule.max[0] + 1] : []).filter((n) => n >= 0);
      const sized = fc.tuple(fc.constantFrom(...lengths), fc.constantFrom('a', '/', 'é', '—')).map(([n, unit]) => unit.repeat(n));
      const withNul = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\0${b}`);
      // Mostly good values, so that whole inputs are often good: each field has to be.
      const good = fc.string({ minLength: rule.min?.[0] ?? 0, maxLength: 20 }).filter((text) => !text.includes('\0'));
      const absent = [...(rule.optional ? [fc.constant(undefined)] : []), ...(rule.nullable ? [fc.constant(null)] : [])];
      return fc.oneof({ arbitrary: fc.oneof(good, ...absent), weight: 12 }, sized, fc.string({ maxLength: 30 }), withNul, others);
    }
  }
}

/** An input: each field of the spec present or not, with a value around its rule, and fields the agent adds. */
function inputsFor(spec: HookInputSpec): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(Object.entries(spec.fields).map(([key, rule]) => [key, valuesFor(rule)]));
  const extra = fc.dictionary(fc.constantFrom('turn_id', 'model', 'agent_id', 'hook_source', 'x'), fc.jsonValue(), { maxKeys: 3 });
  return fc.tuple(fc.record(fields, { requiredKeys: [] }), extra).map(([known, added]) => ({ ...added, ...known }));
}

describe('a hook input read by hand and by zod (cli/hooks/hook-input)', () => {
  it.each(SPECS)('%s: the same inputs taken, the same facts, the same refusals', (_, spec) => {
    let taken = 0;
    let refused = 0;
    fc.assert(
      fc.property(inputsFor(spec), (input) => {
        const byHand = inputByHand(spec, input);
        const parsed = inputSchema(spec).safeParse(input);
        expect(byHand === undefined, JSON.stringify(input).slice(0, 200)).toBe(!parsed.success);
        if (parsed.success) {
          taken++;
          expect(byHand).toStrictEqual(parsed.data);
          expect(Object.keys(byHand ?? {})).toEqual(Object.keys(parsed.data));
        } else {
          refused++;
          expect(readHookInput(spec, input)).toEqual({ ok: false, error: `the hook input's ${describeIssues(parsed.error, '')}` });
        }
      }),
      { numRuns: 1_500, seed: 56 },
    );
    // Both kinds were generated in numbers, so the equality above says something either way.
    expect(taken).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(200);
  });

  it('takes an agent\'s documented input without building a schema', () => {
    const spec = HOOK_PROTOCOLS['claude-code'].events['session-start']?.input;
    if (!spec) throw new Error('no claude-code session-start');
    const input = { session_id: 's1', transcript_path: '/t.jsonl', cwd: '/repo', hook_event_name: 'SessionStart', source: 'compact', model: 'any' };
    expect(readHookInput(spec, input)).toStrictEqual({ ok: true, facts: { cwd: '/repo', sessionId: 's1', source: 'compact' } });
    expect(readHookInput(spec, { ...input, cwd: '' })).toEqual({ ok: false, error: "the hook input's cwd: must not be empty" });
  });
});
