/**
 * @module providers/rules/lints/gather
 * What the lints need from the snapshot, read once: each found file's committed text, every glob of
 * a scoped rule checked against the whole tree, and every `@` reference resolved. Reads are bounded
 * (`maxFileBytes` per file, {@link MAX_REFERENCES_PER_FILE} references a file, {@link MAX_REFERENCES}
 * in all, the glob walk's `maxGlobCheckDirectories` listings), and a glob whose walk was cut is left
 * unjudged rather than called dead.
 */
import type { Snapshot } from '../../../sources/snapshot.ts';
import type { FoundRuleFile } from '../../../context/client-load.ts';
import { globsMatchingNothing } from '../glob-check.ts';
import { parseGlobs, type GlobDialect, type RuleGlob } from '../globs.ts';
import { findReferences, resolveReference } from '../imports.ts';
import { globsField, readRuleFrontmatter } from '../formats/rule-frontmatter.ts';
import type { GlobCheck, ReferenceCheck } from './lint-input.ts';

const MAX_REFERENCES_PER_FILE = 64;
const MAX_REFERENCES = 512;

/** The globs field and dialect of each scoped format, as its client reads it. */
const SCOPED: Readonly<Record<string, { field: string; dialect: GlobDialect }>> = {
  'cursor-rule': { field: 'globs', dialect: 'cursor' },
  'claude-rule': { field: 'paths', dialect: 'claude' },
  'github-instructions': { field: 'applyTo', dialect: 'copilot' },
};

export interface GatherOptions {
  maxFileBytes: number;
  maxGlobCheckDirectories: number;
  signal: AbortSignal;
}

/** Each path's text, when it is a text file; binary, missing and unreadable files have none. */
export async function readTexts(snapshot: Snapshot, paths: readonly string[], options: GatherOptions): Promise<Map<string, string>> {
  const unique = [...new Set(paths)];
  const reads = await Promise.all(unique.map((path) => snapshot.read(path, { maxBytes: options.maxFileBytes, signal: options.signal })));
  const texts = new Map<string, string>();
  for (const read of reads) {
    if (read.status === 'failed') throw new Error(`could not read ${read.path}: ${read.reason}`);
    if (read.status === 'ok') texts.set(read.path, read.text);
  }
  return texts;
}

/** Every glob of every scoped rule, and whether any file of the commit matches it. */
export async function checkGlobs(snapshot: Snapshot, files: ReadonlyArray<{ found: FoundRuleFile; text: string }>, options: GatherOptions): Promise<GlobCheck[]> {
  const parsed: Array<{ path: string; field: string; glob: RuleGlob }> = [];
  for (const { found, text } of files) {
    const scoped = SCOPED[found.format];
    if (!scoped) continue;
    const frontmatter = readRuleFrontmatter(text);
    if (!frontmatter.ok) continue;
    const raw = globsField(frontmatter.fields, scoped.field);
    if (raw === undefined || raw === 'bad') continue;
    for (const glob of parseGlobs(raw, scoped.dialect, found.dir, found.path).globs) if (!glob.all) parsed.push({ path: found.path, field: scoped.field, glob });
  }
  if (parsed.length === 0 || options.maxGlobCheckDirectories === 0) return [];
  const dead = await globsMatchingNothing(snapshot, parsed.map((item) => item.glob), options.maxGlobCheckDirectories, options.signal);
  return parsed.map(({ path, field, glob }) => ({ path, field, glob: glob.text, matchesNothing: dead.has(glob) }));
}

/** Every `@` reference of every text, resolved against the tree as an import would be. */
export async function checkReferences(snapshot: Snapshot, texts: ReadonlyMap<string, string>, options: GatherOptions): Promise<ReferenceCheck[]> {
  const pending: Array<{ importer: string; reference: string; target: string; pathLike: boolean }> = [];
  const out: ReferenceCheck[] = [];
  let left = MAX_REFERENCES;
  for (const [importer, text] of texts) {
    for (const reference of findReferences(text).slice(0, MAX_REFERENCES_PER_FILE)) {
      if (left-- <= 0) break;
      const target = resolveReference(reference, importer);
      if (target.kind === 'ignore') continue;
      if (target.kind === 'refused') out.push({ importer, reference, status: 'outside', why: target.reason });
      else pending.push({ importer, reference, target: target.path, pathLike: target.pathLike });
    }
  }
  const reads = await Promise.all(pending.map((item) => snapshot.read(item.target, { maxBytes: options.maxFileBytes, signal: options.signal })));
  pending.forEach((item, i) => {
    const read = reads[i];
    if (!read || read.status === 'failed') throw new Error(`could not read ${item.target}: ${read?.reason ?? 'no answer'}`);
    if (read.status === 'ok') return void out.push({ importer: item.importer, reference: item.reference, status: 'ok', target: item.target });
    // A name that does not look like a file (a handle, a package) is prose, as the import expansion reads it.
    if (read.status === 'missing' && !item.pathLike) return;
    if (read.status === 'not-a-file' && !item.pathLike) return;
    const why =
      read.status === 'missing' ? 'is not in the tree at this commit'
      : read.status === 'not-a-file' ? `is a ${read.kind === 'dir' ? 'directory' : read.kind}, not a file`
      : read.status === 'binary' ? 'is a binary file'
      : read.status === 'unresolved-symlink' ? `is a symlink to ${read.target} that stays unresolved (${read.reason})`
      : `was not read: ${read.reason}`;
    if (read.status === 'invalid-path') out.push({ importer: item.importer, reference: item.reference, status: 'outside', why });
    else out.push({ importer: item.importer, reference: item.reference, status: 'unresolved', target: item.target, why });
  });
  return out;
}
