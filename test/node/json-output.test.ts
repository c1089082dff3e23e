import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonOutput } from '../../src/cli/json-output.ts';
import { projectSources } from './source-files.ts';

/** Anything a terminal acts on or hides: controls, format characters, line and paragraph separators. */
const RAW = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe('--json and --format output (every command prints JSON through jsonOutput)', () => {
  it('is the same value as JSON.stringify gives, with no control, format or separator character left raw', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const value = fc.record({ title: text, lines: fc.array(text, { maxLength: 3 }), nested: fc.record({ body: text }) });
    fc.assert(
      fc.property(value, (input) => {
        const printed = jsonOutput(input);
        expect(JSON.parse(printed)).toEqual(JSON.parse(JSON.stringify(input)));
        // Only the line feeds of the layout remain.
        expect(printed.replace(/\n/g, '')).not.toMatch(RAW);
      }),
      { numRuns: 500 },
    );
  });

  it('is the only way the CLI prints JSON: no command lays JSON out itself', () => {
    // A pretty-printed JSON.stringify in the CLI is output; one added later (a new command) fails here.
    const offenders = projectSources()
      .filter(({ file }) => file.startsWith('src/cli/') && file !== 'src/cli/json-output.ts')
      .filter(({ text }) => /JSON\.stringify\([^;]*,\s*null,\s*2\)/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it('writes U+009B, U+202E, U+2028 and a tag character as \\u escapes', () => {
    expect(jsonOutput({ t: 'a\u009bb\u202ec\u2028d\u{e0041}' })).toBe('{\n  "t": "a\\u009bb\\u202ec\\u2028d\\udb40\\udc41"\n}\n');
  });
});
