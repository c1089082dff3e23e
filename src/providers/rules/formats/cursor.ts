/**
 * @module providers/rules/formats/cursor
 * Cursor's project rules, `.cursor/rules/**\/*.mdc` (and `.md`), at the root and in every
 * directory along the task's focus chains, and the legacy root `.cursorrules`. Frontmatter picks
 * one of four rule types: `alwaysApply: true` always; `globs` auto-attached when a glob matches;
 * a `description` alone agent-requested (indexed, the model asks for it); none of them manual
 * (never applied automatically). A nested rule's globs are relative to its directory (the
 * parent of its `.cursor/`), and it applies only to focus paths inside that directory.
 */
import { noUsableGlob, parseGlobs } from '../globs.ts';
import { findRepositoryWideFile } from './repository-wide.ts';
import type { FormatContext, FormatFinding } from './context.ts';
import { booleanField, globsField, stringField } from './rule-frontmatter.ts';
import { findScoped } from './scoped.ts';

export const LEGACY_CURSOR_RULES = '.cursorrules';

export function cursorRulesDir(root: string): string {
  return root === '' ? '.cursor/rules' : `${root}/.cursor/rules`;
}

export function findCursorRules(context: FormatContext, root: string): Promise<FormatFinding> {
  return findScoped(context, {
    format: 'cursor-rule',
    dir: cursorRulesDir(root),
    root,
    wanted: (name) => /\.(mdc|md)$/i.test(name),
    activation(fields, path) {
      if (booleanField(fields, 'alwaysApply') === true) return { activation: { kind: 'always', why: 'always (alwaysApply: true)' }, warnings: [] };
      const globs = globsField(fields, 'globs');
      if (globs === 'bad') return { activation: { kind: 'never', why: 'globs is neither a string nor a list of strings' }, warnings: [] };
      const warnings: string[] = [];
      if (globs !== undefined) {
        const parsed = parseGlobs(globs, 'cursor', root, path);
        warnings.push(...parsed.warnings);
        if (parsed.globs.length > 0) return { activation: { kind: 'globs', field: 'globs', globs: parsed.globs }, warnings };
        if (stringField(fields, 'description') === undefined) return { activation: { kind: 'never', why: noUsableGlob('globs', parsed.warnings) }, warnings };
      }
      const description = stringField(fields, 'description');
      if (description !== undefined) return { activation: { kind: 'requested', description }, warnings };
      return { activation: { kind: 'never', why: 'manual rule (no alwaysApply, globs or description): Cursor applies it only when named by hand' }, warnings };
    },
  });
}

/** The single root `.cursorrules` that Cursor still reads: plain text that applies always. */
export function findLegacyCursorRules(context: FormatContext): Promise<FormatFinding> {
  return findRepositoryWideFile(context, { format: 'cursorrules', path: LEGACY_CURSOR_RULES, why: 'always (legacy .cursorrules)' });
}
