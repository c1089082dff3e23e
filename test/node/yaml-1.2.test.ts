/**
 * The one YAML reader (`lib/yaml-1.2`): YAML 1.2 whatever a directive says, aliases counted as
 * what they expand to before anything is built, every construct strict parsers refuse named
 * with its line, and every refusal a value with a line rather than an exception.
 */
import { describe, expect, it } from 'vitest';
import { parseYaml12 } from '../../src/lib/yaml-1.2.ts';

describe('parseYaml12', () => {
  it('reads YAML 1.2 whatever a %YAML directive asks for, and says so', () => {
    const parsed = parseYaml12('%YAML 1.1\n---\nenabled: off\nyes: on\nmerge:\n  <<: { a: b }\n');
    expect(parsed).toEqual({
      ok: true,
      data: { enabled: 'off', yes: 'on', merge: { '<<': { a: 'b' } } },
      constructs: [{ kind: 'flow', line: 6 }],
      warnings: ['its %YAML 1.1 directive was not followed: read as YAML 1.2, where on, off, yes and no are text'],
    });
    expect(parseYaml12('%YAML 1.2\n---\na: 1\n')).toMatchObject({ ok: true, data: { a: 1 }, warnings: [] });
  });

  it("reads YAML 1.2's core types, or every scalar as the text written", () => {
    const text = 'int: 0x1F\nfloat: 1.0\nbool: true\nnull: ~\ndate: 2024-01-01\n';
    expect(parseYaml12(text)).toMatchObject({ ok: true, data: { int: 31, float: 1, bool: true, null: null, date: '2024-01-01' } });
    expect(parseYaml12(text, { schema: 'failsafe' })).toMatchObject({ ok: true, data: { int: '0x1F', float: '1.0', bool: 'true', null: '~', date: '2024-01-01' } });
  });

  it('gives no document as null', () => {
    expect(parseYaml12('')).toEqual({ ok: true, data: null, constructs: [], warnings: [] });
    expect(parseYaml12('# only a comment\n')).toMatchObject({ ok: true, data: null });
  });

  it('names anchors, aliases, explicit tags and flow collections with their lines', () => {
    const parsed = parseYaml12('name: &n x\nalso: *n\ntagged: !!str y\nlist: [a, b]\nblock:\n  - c\n', { schema: 'failsafe', maxAliasNodes: 10 });
    expect(parsed).toMatchObject({
      ok: true,
      data: { name: 'x', also: 'x', tagged: 'y', list: ['a', 'b'], block: ['c'] },
      constructs: [
        { kind: 'anchor', line: 1 },
        { kind: 'alias', line: 2 },
        { kind: 'tag', line: 3 },
        { kind: 'flow', line: 4 },
      ],
    });
  });

  it('refuses every alias by default, and counts what aliases expand to under a bound', () => {
    expect(parseYaml12('a: &x 1\nb: *x\n')).toEqual({ ok: false, message: 'aliases (*name) are not allowed', line: 2, warnings: [] });
    // Each level multiplies the one before by ten: 10 + 100 nodes through aliases, though only 20 aliases are written.
    const bomb = `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${'*a, '.repeat(9)}*a]\nc: &c [${'*b, '.repeat(9)}*b]\n`;
    expect(parseYaml12(bomb, { maxAliasNodes: 50 })).toEqual({ ok: false, message: 'aliases expand to more than 50 nodes', line: 2, warnings: [] });
    expect(parseYaml12(bomb, { maxAliasNodes: 10_000 })).toMatchObject({ ok: true });
    const chain = `a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n`;
    // *a is 3 nodes (the list and its two items), *b is 7: 3 + 3 + 7 + 7 = 20.
    expect(parseYaml12(chain, { maxAliasNodes: 20 })).toMatchObject({ ok: true, data: { c: [[['x', 'x'], ['x', 'x']], [['x', 'x'], ['x', 'x']]] } });
    expect(parseYaml12(chain, { maxAliasNodes: 19 })).toMatchObject({ ok: false, message: 'aliases expand to more than 19 nodes', line: 3 });
    // A value that contains itself would never serialise: refused, also when an earlier node had the name.
    expect(parseYaml12('a: &a [x, *a]\n', { maxAliasNodes: 50 })).toEqual({ ok: false, message: 'the alias *a is inside the node it names (a value that contains itself)', line: 1, warnings: [] });
    expect(parseYaml12('a: &a x\nb: &a\n  c: *a\n', { maxAliasNodes: 50 })).toMatchObject({ ok: false, line: 3 });
    expect(parseYaml12('a: &a x\nb: [*a, *a]\n', { maxAliasNodes: 50 })).toMatchObject({ ok: true, data: { a: 'x', b: ['x', 'x'] } });
  });

  it('refuses with a message and a line: duplicate keys, bad indentation, tabs, unknown tags, a second document, deep nesting', () => {
    expect(parseYaml12('a: 1\nb: 2\na: 3\n')).toEqual({ ok: false, message: 'duplicated mapping key', line: 3, warnings: [] });
    expect(parseYaml12('a: [1, 2\nb: 3\n')).toMatchObject({ ok: false, line: 2 });
    expect(parseYaml12('a:\n\t- b\n')).toMatchObject({ ok: false, message: expect.stringContaining('tab'), line: 2 });
    expect(parseYaml12('a: !custom 1\n')).toMatchObject({ ok: false, message: expect.stringContaining('unknown'), line: 1 });
    expect(parseYaml12('a: 1\n---\nb: 2\n')).toMatchObject({ ok: false, message: expect.stringContaining('more than one YAML document'), line: 3 });
    expect(parseYaml12('%YAML 1.1\na: 1\n')).toMatchObject({ ok: false, message: 'a %YAML or %TAG directive must be followed by a --- line', line: 2 });
    expect(parseYaml12(`${'['.repeat(200)}${']'.repeat(200)}`)).toMatchObject({ ok: false, message: expect.stringContaining('nesting exceeded') });
  });

  it('keeps __proto__ and constructor as plain keys of the value, never the prototype', () => {
    const parsed = parseYaml12('__proto__: { polluted: yes }\nconstructor: x\n');
    expect(parsed.ok).toBe(true);
    const data = (parsed.ok ? parsed.data : {}) as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
