/**
 * @module providers/rules/globs
 * A rule file's globs, read with the semantics of the tool that defined its format, and matched
 * against a task's focus paths.
 *
 * - Copilot (`applyTo`), as VS Code reads it: comma-separated; `**`, `**\/*` and `*` mean every
 *   file; any other pattern not starting with `/` or `**\/` is prefixed with `**\/`, so
 *   `src/**\/*.ts` also matches `packages/a/src/b.ts`; case is ignored.
 * - Cursor (`globs`) and Claude Code (`paths`): a string (comma-separated) or a list, relative to
 *   the directory that holds the rules (`.cursor/` or `.claude/`'s parent); a pattern without
 *   `/` matches a file name at any depth, as in `.gitignore`; case matters.
 *
 * Everywhere: a leading `/` or `./` anchors at that directory; a `..` segment or a `!` negation
 * is refused with a warning (a glob names files inside the tree, never beside it); at most
 * {@link MAX_GLOBS} globs of at most {@link MAX_GLOB_CHARS} characters each.
 *
 * A focus path is matched as a path, a directory as its own path: `packages/web/**` and
 * `packages/*` match the directory `packages/web`, `packages/web/**\/*.tsx` does not (it names
 * files in it, and which of them the task touches is not known).
 */
import { compileGlob, literalBase, type CompiledGlob } from '../../lib/glob-match.ts';

export type GlobDialect = 'copilot' | 'cursor' | 'claude';

export const MAX_GLOBS = 32;
export const MAX_GLOB_CHARS = 256;
const MATCH_ALL = new Set(['**', '**/*', '*']);

export interface RuleGlob {
  /** As written in the file. */
  text: string;
  /** Matches every path: the rule applies always. */
  all: boolean;
  /** Directory (from the repository root) under which matches can lie: where a walk for them starts. */
  base: string;
  test(path: string): boolean;
}

export interface ParsedGlobs {
  globs: RuleGlob[];
  warnings: string[];
}

/**
 * `raw` as the frontmatter held it; `root` is the directory the globs are relative to (`''` for
 * the repository root, `packages/web` for `packages/web/.cursor/rules/…`).
 *
 * @example
 * parseGlobs('src/**\/*.ts, docs/*.md', 'copilot', '', '.github/instructions/ts.instructions.md')
 */
export function parseGlobs(raw: string | readonly string[], dialect: GlobDialect, root: string, file: string): ParsedGlobs {
  const texts = (typeof raw === 'string' ? [raw] : raw).flatMap(splitTopLevel).map((text) => text.trim()).filter((text) => text !== '');
  const warnings: string[] = [];
  if (texts.length > MAX_GLOBS) warnings.push(`${file}: ${texts.length} globs, only the first ${MAX_GLOBS} are used`);
  const globs: RuleGlob[] = [];
  for (const text of texts.slice(0, MAX_GLOBS)) {
    const parsed = parseOne(text, dialect, root);
    if ('reason' in parsed) warnings.push(`${file}: glob ${quote(text)} ignored: ${parsed.reason}`);
    else globs.push(parsed);
  }
  return { globs, warnings };
}

function parseOne(text: string, dialect: GlobDialect, root: string): RuleGlob | { reason: string } {
  if (text.length > MAX_GLOB_CHARS) return { reason: `longer than ${MAX_GLOB_CHARS} characters` };
  if (text.startsWith('!')) return { reason: 'negated globs are not supported' };
  if (text.includes('\0')) return { reason: 'contains a NUL byte' };
  if (MATCH_ALL.has(text)) return { text, all: true, base: root, test: (path) => within(root, path) !== undefined };
  const anchored = text.startsWith('/') || text.startsWith('./');
  let pattern = text.replace(/^\.?\/+/, '');
  if (pattern.split('/').some((segment) => segment === '..')) return { reason: 'a ".." segment points outside the directory the rules apply to' };
  if (pattern === '') return { reason: 'names no file' };
  if (!anchored && (dialect === 'copilot' ? !pattern.startsWith('**/') : !pattern.includes('/'))) pattern = `**/${pattern}`;
  const compiled = compileGlob(pattern, { nocase: dialect === 'copilot' });
  if (!compiled.ok) return { reason: compiled.reason };
  const base = literalBase(pattern);
  return { text, all: false, base: root === '' ? base : base === '' ? root : `${root}/${base}`, test: relativeTest(compiled.glob, root) };
}

function relativeTest(glob: CompiledGlob, root: string): (path: string) => boolean {
  return (path) => {
    const relative = within(root, path);
    return relative !== undefined && glob.test(relative);
  };
}

/** `path` relative to `root`, or undefined when it lies outside. */
function within(root: string, path: string): string | undefined {
  if (root === '') return path;
  if (path === root) return '';
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
}

/** Splits at commas outside braces, so `*.{ts,tsx}` stays one glob. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === '\\' && i + 1 < text.length) {
      current += char + (text[++i] ?? '');
      continue;
    }
    if (char === '{') depth++;
    else if (char === '}' && depth > 0) depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** The first glob of `globs` that matches one of `paths`, and that path. */
export function firstMatch(globs: readonly RuleGlob[], paths: readonly string[]): { glob: RuleGlob; path: string } | undefined {
  for (const glob of globs) {
    const path = paths.find((candidate) => glob.test(candidate));
    if (path !== undefined) return { glob, path };
  }
  return undefined;
}

export function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);
}

/** Why a rule whose globs were all refused never applies: the first refusal, without the file name. */
export function noUsableGlob(field: string, warnings: readonly string[]): string {
  const first = warnings[0];
  const why = first === undefined ? '' : `: ${first.slice(first.indexOf(': ') + 2)}`;
  return `${field} names no usable glob${why}`;
}
