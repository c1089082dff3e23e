/**
 * @module providers/rules/formats/repository-wide
 * The formats that are one file at a fixed path, plain Markdown that applies to every request in
 * the repository: Copilot's `.github/copilot-instructions.md`, Cursor's legacy `.cursorrules`,
 * Claude Code's `.claude/CLAUDE.md`. Found by listing the directory that holds it, so a missing
 * file costs no read and a directory of that name is not mistaken for one.
 */
import { disabled, readRuleFile, readWarnings, type FormatContext, type FormatFinding } from './context.ts';
import type { RuleFormat } from './rule-file.ts';

export interface RepositoryWideFile {
  format: RuleFormat;
  /** The file's path from the root. */
  path: string;
  /** Why it applies, as the verdict says it: `always (…)`. */
  why: string;
}

export async function findRepositoryWideFile(context: FormatContext, spec: RepositoryWideFile): Promise<FormatFinding> {
  const slash = spec.path.lastIndexOf('/');
  const dir = slash === -1 ? '' : spec.path.slice(0, slash);
  const listing = await context.snapshot.list(dir, { signal: context.signal });
  if (listing.status === 'failed') throw new Error(`could not list ${dir || '.'}: ${listing.reason}`);
  const file = listing.status === 'ok' ? listing.entries.find((entry) => entry.path === spec.path && entry.kind !== 'dir') : undefined;
  if (!file) return { rules: [], skipped: [], notes: [] };
  if (context.disabledBy) return { rules: [], skipped: disabled(spec.format, [file], context.disabledBy), notes: [] };
  const read = await readRuleFile(context, file.path);
  if (!read.ok) return { rules: [], skipped: [{ format: spec.format, path: file.path, blob: file.oid, reason: read.reason }], notes: [`left out ${file.path}: ${read.reason}`] };
  return {
    rules: [{ format: spec.format, path: file.path, root: '', name: spec.format, read: read.read, body: read.read.text, activation: { kind: 'always', why: spec.why }, warnings: readWarnings(read.read, context.maxFileBytes) }],
    skipped: [],
    notes: [],
  };
}
