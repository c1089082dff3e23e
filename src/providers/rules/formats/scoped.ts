/**
 * @module providers/rules/formats/scoped
 * The shared reading of formats kept as a directory of Markdown files with frontmatter: walk the
 * directory, read each file, split its frontmatter, and let the format say how it activates.
 * A file whose frontmatter cannot be read is never applied (its scope is unknown), and says why.
 */
import type { FormatContext, FormatFinding, Skipped } from './context.ts';
import { disabled, readRuleFile, readWarnings } from './context.ts';
import { readRuleFrontmatter } from './rule-frontmatter.ts';
import { ruleName, type Activation, type FoundRule, type RuleFormat } from './rule-file.ts';
import { walkRuleDirectory, type NameTest } from './walk.ts';

export interface ScopedFormat {
  format: RuleFormat;
  /** The rules directory, e.g. `.claude/rules` or `packages/web/.cursor/rules`. */
  dir: string;
  /** The directory its globs are relative to. */
  root: string;
  wanted: NameTest;
  /** How a file's frontmatter makes it apply; `warnings` name what was ignored. */
  activation(fields: Readonly<Record<string, unknown>>, path: string): { activation: Activation; warnings: string[] };
}

export async function findScoped(context: FormatContext, spec: ScopedFormat): Promise<FormatFinding> {
  const walked = await walkRuleDirectory(context.snapshot, spec.dir, spec.wanted, { maxDepth: context.maxDepth, maxFiles: context.maxFiles }, context.signal);
  if (context.disabledBy) return { rules: [], skipped: disabled(spec.format, walked.files, context.disabledBy), notes: walked.notes };
  const notes = [...walked.notes];
  const skipped: Skipped[] = [];
  const rules: FoundRule[] = [];
  const reads = await Promise.all(walked.files.map(async (file) => ({ file, read: await readRuleFile(context, file.path) })));
  for (const { file, read } of reads) {
    if (!read.ok) {
      skipped.push({ format: spec.format, path: file.path, blob: file.oid, reason: read.reason });
      notes.push(`left out ${file.path}: ${read.reason}`);
      continue;
    }
    const frontmatter = readRuleFrontmatter(read.read.text);
    const warnings = readWarnings(read.read, context.maxFileBytes);
    let activation: Activation;
    if (frontmatter.ok) {
      const decided = spec.activation(frontmatter.fields, file.path);
      activation = decided.activation;
      warnings.push(...decided.warnings);
    } else {
      activation = { kind: 'never', why: `its frontmatter cannot be read: ${frontmatter.problem}` };
      notes.push(`${file.path}: ${frontmatter.problem}`);
    }
    rules.push({ format: spec.format, path: file.path, root: spec.root, name: ruleName(file.path), read: read.read, body: frontmatter.body, activation, warnings });
  }
  return { rules, skipped, notes };
}
