import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob, literalBase } from '../../src/lib/glob-match.ts';
import { parseGlobs } from '../../src/providers/rules/globs.ts';

const matches = (glob: string, path: string, nocase = false) => {
  const compiled = compileGlob(glob, { nocase });
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.glob.test(path);
};

/** A plain backtracking translation, fine on the short inputs of the property test. */
function reference(glob: string, path: string): boolean {
  const segment = (part: string) => part.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  const parts = glob.split('/');
  let source = '';
  parts.forEach((part, i) => {
    const first = i === 0;
    const last = i === parts.length - 1;
    if (part === '**') source += first && last ? '(?:[^/]+(?:/[^/]+)*)?' : last ? '(?:/[^/]+)*' : first ? '(?:[^/]+/)*' : '/(?:[^/]+/)*';
    else source += `${first || parts[i - 1] === '**' ? '' : '/'}${segment(part)}`;
  });
  return new RegExp(`^${source}$`).test(path);
}

describe('glob matching', () => {
  it('matches as the formats document it', () => {
    expect(matches('src/**/*.{ts,tsx}', 'src/a/b.tsx')).toBe(true);
    expect(matches('src/**/*.{ts,tsx}', 'src/b.ts')).toBe(true);
    expect(matches('src/**/*.{ts,tsx}', 'lib/b.ts')).toBe(false);
    expect(matches('packages/web/**', 'packages/web')).toBe(true);
    expect(matches('**/*.yml', '.github/workflows/ci.yml')).toBe(true);
    expect(matches('[a-c]?.md', 'b1.md')).toBe(true);
    expect(matches('[!a]*.md', 'a1.md')).toBe(false);
    expect(matches('a\\*b', 'a*b')).toBe(true);
    expect(matches('a\\*b', 'axb')).toBe(false);
    expect(matches('*.TS', 'a.ts', true)).toBe(true);
    expect(matches('*.TS', 'a.ts')).toBe(false);
    expect(literalBase('src/api/**/*.ts')).toBe('src/api');
  });

  it('agrees with a regular-expression translation on *, ** and ?', () => {
    const segment = fc.stringMatching(/^[ab*?]{1,4}$/).filter((s) => !s.includes('**'));
    const glob = fc.array(fc.oneof(segment, fc.constant('**')), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/').replace(/(^|\/)\*\*(?:\/\*\*)+(?=\/|$)/g, '$1**'));
    const path = fc.array(fc.stringMatching(/^[ab]{1,3}$/), { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
    fc.assert(fc.property(glob, path, (g, p) => matches(g, p) === reference(g, p)), { numRuns: 2000 });
  });

  it('stays linear on patterns that make backtracking matchers run for minutes', () => {
    // picomatch takes seconds on 30 characters of this and does not finish on 1 000.
    expect(matches('*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(100_000))).toBe(false);
    expect(matches('**/a/**/a/**/a/**/a/**/b', Array.from({ length: 2_000 }, () => 'a').join('/'))).toBe(false);
  });

  it('refuses brace bombs, negations, .. and overlong globs, naming each', () => {
    expect(compileGlob(`{${Array.from({ length: 10 }, () => 'a,b').join('}{')}}`)).toEqual({ ok: false, reason: 'expands to more than 64 alternatives' });
    const parsed = parseGlobs(['!**/*.ts', '../x/**', 'a'.repeat(300), 'src/**'], 'claude', '', 'r.md');
    expect(parsed.globs.map((glob) => glob.text)).toEqual(['src/**']);
    expect(parsed.warnings).toEqual([
      'r.md: glob "!**/*.ts" ignored: negated globs are not supported',
      'r.md: glob "../x/**" ignored: a ".." segment points outside the directory the rules apply to',
      `r.md: glob ${JSON.stringify(`${'a'.repeat(79)}…`)} ignored: longer than 256 characters`,
    ]);
    expect(parseGlobs(Array.from({ length: 40 }, (_, i) => `d${i}/**`), 'cursor', '', 'r.mdc').warnings).toEqual(['r.mdc: 40 globs, only the first 32 are used']);
  });

  it('reads Copilot globs as VS Code does, Cursor and Claude globs from their own directory', () => {
    const [copilot] = parseGlobs('src/**/*.ts', 'copilot', '', 'x').globs;
    expect(copilot?.test('packages/a/src/b.ts')).toBe(true);
    expect(copilot?.test('packages/a/SRC/B.TS')).toBe(true);
    const [claude] = parseGlobs('src/**/*.ts', 'claude', '', 'x').globs;
    expect(claude?.test('packages/a/src/b.ts')).toBe(false);
    expect(claude?.test('src/b.ts')).toBe(true);
    const [base] = parseGlobs('*.md', 'claude', '', 'x').globs;
    expect(base?.test('docs/deep/guide.md')).toBe(true);
    const [nested] = parseGlobs('src/**', 'cursor', 'packages/web', 'x').globs;
    expect(nested?.test('packages/web/src/app.ts')).toBe(true);
    expect(nested?.test('src/app.ts')).toBe(false);
    expect(nested?.base).toBe('packages/web/src');
    const [all] = parseGlobs('**', 'cursor', 'packages/web', 'x').globs;
    expect(all?.all).toBe(true);
    expect(all?.test('packages/api/x.ts')).toBe(false);
    expect(parseGlobs('*.{ts,tsx}, docs/**', 'copilot', '', 'x').globs.map((glob) => glob.text)).toEqual(['*.{ts,tsx}', 'docs/**']);
  });
});
