/**
 * @module lib/glob-match
 * Glob matching in time proportional to the pattern times the path, whatever either holds. Rule
 * globs come from repository files and the paths they are matched against from pull requests,
 * so both are someone else's text: a matcher that compiles globs to backtracking regular
 * expressions (as picomatch and minimatch do) can be made to run for minutes by a pattern such
 * as `*a*a*a*a*b` against a long name. Here every segment is matched with the two-pointer
 * wildcard walk and segments with a table, so nothing backtracks more than once per character.
 *
 * Syntax: `/` separates segments; `**` alone in a segment matches any number of segments
 * (none included); `*` any run of characters inside a segment, `?` one, `[abc]`, `[a-z]` and
 * `[!a]` (or `[^a]`) one of a class; `{a,b}` alternatives (nested, at most
 * {@link MAX_ALTERNATIVES}); `\` quotes the next character. Names starting with a dot are
 * matched like any other.
 */

export const MAX_ALTERNATIVES = 64;

type Token = { kind: 'char'; char: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'class'; negated: boolean; ranges: Array<[string, string]> };
type Segment = { kind: 'globstar' } | { kind: 'tokens'; tokens: Token[] };

export interface CompiledGlob {
  /** Whether the normalised path (no leading or trailing `/`) matches. */
  test(path: string): boolean;
}

export type CompileResult = { ok: true; glob: CompiledGlob } | { ok: false; reason: string };

/**
 * @example
 * const glob = compileGlob('src/**\/*.{ts,tsx}');
 * glob.ok && glob.glob.test('src/a/b.tsx') // true
 */
export function compileGlob(pattern: string, options: { nocase?: boolean } = {}): CompileResult {
  const expanded = expandBraces(pattern);
  if (!expanded.ok) return expanded;
  const fold = (text: string) => (options.nocase ? text.toLowerCase() : text);
  const alternatives = expanded.alternatives.map((alternative) => parseSegments(fold(alternative)));
  return {
    ok: true,
    glob: {
      test(path) {
        const segments = path === '' ? [] : fold(path).split('/');
        return alternatives.some((pattern) => matchSegments(pattern, segments));
      },
    },
  };
}

/** `{a,b}c` -> `ac`, `bc`; a brace without a comma at its level is literal, as in the shell. */
function expandBraces(pattern: string): { ok: true; alternatives: string[] } | { ok: false; reason: string } {
  const open = findBrace(pattern);
  if (!open) return { ok: true, alternatives: [pattern] };
  const head = pattern.slice(0, open.start);
  const tail = pattern.slice(open.end + 1);
  const out: string[] = [];
  for (const option of open.options) {
    const rest = expandBraces(`${head}${option}${tail}`);
    if (!rest.ok) return rest;
    out.push(...rest.alternatives);
    if (out.length > MAX_ALTERNATIVES) return { ok: false, reason: `expands to more than ${MAX_ALTERNATIVES} alternatives` };
  }
  return { ok: true, alternatives: out };
}

/** The first `{...}` with a comma at its own level, split at those commas. */
function findBrace(pattern: string): { start: number; end: number; options: string[] } | undefined {
  for (let start = 0; start < pattern.length; start++) {
    if (pattern[start] === '\\') {
      start++;
      continue;
    }
    if (pattern[start] !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < pattern.length; i++) {
      const char = pattern[i];
      if (char === '\\') i++;
      else if (char === '{') depth++;
      else if (char === ',' && depth === 1) commas.push(i);
      else if (char === '}' && --depth === 0) {
        if (commas.length === 0) break;
        const cuts = [start, ...commas, i];
        return { start, end: i, options: cuts.slice(1).map((cut, k) => pattern.slice((cuts[k] ?? start) + 1, cut)) };
      }
    }
  }
  return undefined;
}

function parseSegments(pattern: string): Segment[] {
  const segments: Segment[] = [];
  for (const part of splitUnquoted(pattern)) {
    if (part === '**') {
      // `a/**/**/b` is `a/**/b`: consecutive globstars would only multiply the table.
      if (segments.at(-1)?.kind !== 'globstar') segments.push({ kind: 'globstar' });
    } else segments.push({ kind: 'tokens', tokens: tokenize(part) });
  }
  return segments;
}

/** Splits at `/` that no `\` quotes. */
function splitUnquoted(pattern: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? '';
    if (char === '\\' && i + 1 < pattern.length) {
      current += char + (pattern[++i] ?? '');
    } else if (char === '/') {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function tokenize(segment: string): Token[] {
  const tokens: Token[] = [];
  const chars = Array.from(segment);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] ?? '';
    if (char === '\\' && i + 1 < chars.length) tokens.push({ kind: 'char', char: chars[++i] ?? '' });
    else if (char === '?') tokens.push({ kind: 'any' });
    else if (char === '*') {
      // `**` inside a segment (`a**b`) is a plain star, as in bash without globstar.
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (char === '[') {
      const parsed = parseClass(chars, i);
      if (parsed) {
        tokens.push(parsed.token);
        i = parsed.end;
      } else tokens.push({ kind: 'char', char });
    } else tokens.push({ kind: 'char', char });
  }
  return tokens;
}

/** `[...]` from `chars[start]`; undefined when it never closes (then `[` is literal). */
function parseClass(chars: readonly string[], start: number): { token: Token; end: number } | undefined {
  let i = start + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  for (; i < chars.length; i++) {
    let char = chars[i] ?? '';
    if (char === ']' && !first) return { token: { kind: 'class', negated, ranges }, end: i };
    first = false;
    if (char === '\\' && i + 1 < chars.length) char = chars[++i] ?? '';
    if (chars[i + 1] === '-' && chars[i + 2] !== undefined && chars[i + 2] !== ']') {
      let to = chars[i + 2] ?? '';
      i += 2;
      if (to === '\\' && i + 1 < chars.length) to = chars[++i] ?? '';
      ranges.push([char, to]);
    } else ranges.push([char, char]);
  }
  return undefined;
}

function tokenMatches(token: Exclude<Token, { kind: 'star' }>, char: string): boolean {
  if (token.kind === 'any') return true;
  if (token.kind === 'char') return token.char === char;
  const inside = token.ranges.some(([from, to]) => from <= char && char <= to);
  return inside !== token.negated;
}

/** The classic two-pointer wildcard walk: on a mismatch, only the last star takes one more character. */
function matchSegment(tokens: readonly Token[], text: string): boolean {
  const chars = Array.from(text);
  let t = 0;
  let c = 0;
  let star = -1;
  let resume = 0;
  while (c < chars.length) {
    const token = tokens[t];
    if (token && token.kind === 'star') {
      star = t++;
      resume = c;
    } else if (token && tokenMatches(token, chars[c] ?? '')) {
      t++;
      c++;
    } else if (star >= 0) {
      t = star + 1;
      c = ++resume;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/** Segments against segments, with a table over (pattern position, path position). */
function matchSegments(pattern: readonly Segment[], path: readonly string[]): boolean {
  const width = path.length + 1;
  // reach[i * width + j]: pattern from i matches path from j.
  const reach = new Uint8Array((pattern.length + 1) * width);
  reach[pattern.length * width + path.length] = 1;
  for (let i = pattern.length - 1; i >= 0; i--) {
    const segment = pattern[i];
    for (let j = path.length; j >= 0; j--) {
      let ok = false;
      if (segment?.kind === 'globstar') ok = reach[(i + 1) * width + j] === 1 || (j < path.length && reach[i * width + j + 1] === 1);
      else if (segment && j < path.length) ok = reach[(i + 1) * width + j + 1] === 1 && matchSegment(segment.tokens, path[j] ?? '');
      reach[i * width + j] = ok ? 1 : 0;
    }
  }
  return reach[0] === 1;
}

/** The leading segments without any wildcard, brace or class: where a walk for matches can start. */
export function literalBase(pattern: string): string {
  const base: string[] = [];
  const parts = pattern.split('/');
  for (const part of parts.slice(0, -1)) {
    if (/[*?[{\\]/.test(part)) break;
    base.push(part);
  }
  return base.join('/');
}
