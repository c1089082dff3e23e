/**
 * @module providers/rules/imports
 * `@path` imports in instruction files, expanded as Claude Code and Gemini CLI do: an `@` at the
 * start of a line or after white space, up to the next white space, relative to the importing
 * file; never inside a fenced block or a code span; imported files may import in turn, at most
 * `maxDepth` levels down. Only files inside the tree at the pinned commit are read: `~` and
 * absolute paths are refused, a path that leaves the root is refused, a symlink is followed only
 * to a file inside the tree (the snapshot's rule). A cycle is reported and not followed again;
 * a file imported twice is given once. A missing file is a warning when the reference looks like
 * a path (`./`, `../` or a file extension), and nothing at all otherwise, so a package name such
 * as `@octokit/rest` in prose is not mistaken for an import.
 *
 * Each imported file becomes its own entry right after its importer, with its own `path@commit`
 * and blob, so provenance and freshness track it like any rule file.
 */
import { joinPath, parentOf } from '../../sources/paths.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { ReadOk } from './formats/rule-file.ts';

export interface ImportedFile {
  path: string;
  read: ReadOk;
  importedBy: string;
  depth: number;
  /** The reference as written, without its `@`. */
  reference: string;
}

export interface ImportProblem {
  /** What the reference resolved to, or the reference as written when it did not resolve. */
  path: string;
  importedBy: string;
  reason: string;
  /** Whether to tell the reader (a reference that looked like a file and is not one). */
  warn: boolean;
}

export interface ImportOptions {
  snapshot: Snapshot;
  maxDepth: number;
  maxFileBytes: number;
  /** Imports still allowed in this run, shared by every importer (they are expanded one after another). */
  budget: { left: number };
  /** Paths already given to the model in this run (rule files and earlier imports). */
  given: Set<string>;
  signal: AbortSignal;
}

export interface Expanded {
  files: ImportedFile[];
  /** One per reference that was not followed. */
  problems: ImportProblem[];
  /** Both, one per reference, in the order referenced (depth first). */
  steps: Array<{ file: ImportedFile } | { problem: ImportProblem }>;
}

/** At most this many references are looked at in one file; the rest are counted in one problem. */
const MAX_REFERENCES = 64;

/**
 * @example
 * const { files } = await expandImports({ path: 'CLAUDE.md', text: 'See @docs/style.md.' }, options);
 * files[0]?.path // 'docs/style.md'
 */
export async function expandImports(file: { path: string; text: string }, options: ImportOptions): Promise<Expanded> {
  const out: Expanded = { files: [], problems: [], steps: [] };
  await expand(file, [file.path], 1, options, out);
  return out;
}

async function expand(file: { path: string; text: string }, stack: readonly string[], depth: number, options: ImportOptions, out: Expanded): Promise<void> {
  const all = findReferences(file.text);
  const references = all.slice(0, MAX_REFERENCES);
  const problem = (path: string, reason: string) => {
    const found: ImportProblem = { path, importedBy: file.path, reason, warn: true };
    out.problems.push(found);
    out.steps.push({ problem: found });
  };
  // Every reference that could be an import gets its own verdict, in order: prose (a missing name
  // that does not look like a file, a URL) gets none.
  const resolved = references.map((reference) => resolveReference(reference, file.path));
  if (depth > options.maxDepth) {
    for (const target of resolved) {
      if (target.kind === 'refused') problem(target.reference, `import @${target.reference} in ${file.path} not followed: ${target.reason}`);
      else if (target.kind === 'path' && target.pathLike) problem(target.path, `import @${target.reference} in ${file.path} not expanded: deeper than ${options.maxDepth} levels`);
    }
    return;
  }
  // Read this file's imports together (one round), then descend into each in order.
  const reads = await Promise.all(
    resolved.map(async (target) => (target.kind === 'path' && !stack.includes(target.path) && !options.given.has(target.path) ? options.snapshot.read(target.path, { maxBytes: options.maxFileBytes, signal: options.signal }) : undefined)),
  );
  for (const [i, target] of resolved.entries()) {
    if (target.kind === 'ignore') continue;
    if (target.kind === 'refused') {
      problem(target.reference, `import @${target.reference} in ${file.path} not followed: ${target.reason}`);
      continue;
    }
    if (stack.includes(target.path)) {
      problem(target.path, `import cycle ${[...stack, target.path].join(' -> ')}: not followed again`);
      continue;
    }
    if (options.given.has(target.path)) continue;
    const read = reads[i];
    if (!read) continue;
    if (read.status === 'failed') throw new Error(`could not read ${read.path}: ${read.reason}`);
    // A directory or a missing name that did not look like a file was prose, not an import.
    if (read.status !== 'ok' && !(target.pathLike || read.status === 'unresolved-symlink' || read.status === 'binary')) continue;
    // Past the limit every later reference says so, whatever it names.
    if (options.budget.left <= 0) {
      problem(target.path, `import @${target.reference} in ${file.path} not expanded: this run's import limit is reached`);
      continue;
    }
    if (read.status !== 'ok') {
      problem(target.path, `import @${target.reference} in ${file.path}: ${target.path} ${describe(read)}`);
      continue;
    }
    options.budget.left--;
    options.given.add(target.path);
    const imported: ImportedFile = { path: target.path, read, importedBy: file.path, depth, reference: target.reference };
    out.files.push(imported);
    out.steps.push({ file: imported });
    await expand({ path: target.path, text: read.text }, [...stack, target.path], depth + 1, options, out);
  }
  if (all.length > MAX_REFERENCES) problem(file.path, `${all.length - MAX_REFERENCES} more @ references in ${file.path} not looked at: at most ${MAX_REFERENCES} per file`);
}

/** The path an `@` reference in `importer` names inside the tree, when it names one. */
export function importTarget(reference: string, importer: string): string | undefined {
  const target = resolveReference(reference, importer);
  return target.kind === 'path' ? target.path : undefined;
}

export type ImportTargetOf =
  | { kind: 'path'; reference: string; path: string; pathLike: boolean }
  | { kind: 'refused'; reference: string; reason: string }
  | { kind: 'ignore' };

/** Whether a reference names a file rather than a handle or a package: `./`, `../`, a `..` segment, or an extension. */
function looksLikePath(reference: string): boolean {
  return reference.startsWith('./') || reference.startsWith('../') || reference.split('/').includes('..') || /\.[A-Za-z0-9]+$/.test(reference);
}

/** What an `@` reference in `importer` names: a path in the tree, a refusal (why), or prose to ignore. */
export function resolveReference(reference: string, importer: string): ImportTargetOf {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference)) return { kind: 'ignore' };
  if (reference.startsWith('~')) return { kind: 'refused', reference, reason: 'a home directory is outside the repository' };
  if (reference.startsWith('/')) return { kind: 'refused', reference, reason: 'an absolute path is outside the repository' };
  // A file name may hold `%`, but `%2e%2e` meant as `..` must not slip past as a missing file.
  const encoded = /%[0-9a-f]{2}/i.exec(reference);
  if (encoded) return { kind: 'refused', reference, reason: `${encoded[0]} is percent-encoding, which an import path is never decoded from` };
  const pathLike = looksLikePath(reference);
  const joined = joinPath(parentOf(importer), reference);
  if (!joined.ok) return pathLike ? { kind: 'refused', reference, reason: joined.reason } : { kind: 'ignore' };
  if (joined.path === '') return { kind: 'ignore' };
  // Git keeps no .git in a tree: a reference into one is never a file of the commit.
  if (joined.path.split('/').some((segment) => segment.toLowerCase() === '.git')) return { kind: 'refused', reference, reason: "a .git directory is git's own, not part of the commit's tree" };
  return { kind: 'path', reference, path: joined.path, pathLike };
}

/** `@` references outside code, in order, with trailing punctuation of the sentence removed. */
export function findReferences(text: string): string[] {
  // Most rule files hold no `@` at all: no masking of their code, line by line, to find none.
  if (!text.includes('@')) return [];
  const prose = maskCode(text);
  const found: string[] = [];
  const pattern = /(?:^|[ \t\r\n])@([^\s]+)/g;
  for (const match of prose.matchAll(pattern)) {
    const raw = (match[1] ?? '').replace(/[,;:!?)\]}>"'`]+$/, '').replace(/\.$/, '');
    if (/^[A-Za-z0-9._~/%]/.test(raw) && raw !== '' && raw !== '.' && raw !== '..') found.push(raw);
  }
  return found;
}

/** The text with fenced blocks and code spans blanked out (same length), so their `@`s are not imports. */
export function maskCode(text: string): string {
  const lines = text.split('\n');
  let fence: { char: string; length: number } | undefined;
  const kept = lines.map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opening?.[1] && opening[1][0] === fence.char && opening[1].length >= fence.length && line.trim() === opening[1]) fence = undefined;
      return ' '.repeat(line.length);
    }
    if (opening?.[1]) {
      fence = { char: opening[1][0] ?? '`', length: opening[1].length };
      return ' '.repeat(line.length);
    }
    return line;
  });
  return kept.join('\n').replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '));
}

function describe(read: Exclude<Awaited<ReturnType<Snapshot['read']>>, { status: 'ok' | 'failed' }>): string {
  switch (read.status) {
    case 'missing':
      return 'is not in the tree at this commit';
    case 'not-a-file':
      return `is a ${read.kind}, not a file`;
    case 'binary':
      return read.reason === 'nul-byte' ? 'is a binary file' : 'is not valid UTF-8';
    case 'unresolved-symlink':
      return `is a symlink to ${read.target}, not followed (${read.reason})`;
    case 'skipped':
    case 'invalid-path':
      return `was not read: ${read.reason}`;
  }
}
