/**
 * @module providers/rules/formats/claude-rules
 * Claude Code's modular rules, `.claude/rules/**\/*.md`: frontmatter `paths` (a glob or a list)
 * scopes a rule to matching files; a rule without `paths` applies always.
 */
import { noUsableGlob, parseGlobs } from '../globs.ts';
import type { FormatContext, FormatFinding } from './context.ts';
import { globsField } from './rule-frontmatter.ts';
import { findScoped } from './scoped.ts';

export const CLAUDE_RULES_DIR = '.claude/rules';

export function findClaudeRules(context: FormatContext): Promise<FormatFinding> {
  return findScoped(context, {
    format: 'claude-rule',
    dir: CLAUDE_RULES_DIR,
    root: '',
    wanted: (name) => name.toLowerCase().endsWith('.md'),
    activation(fields, path) {
      const paths = globsField(fields, 'paths');
      if (paths === 'bad') return { activation: { kind: 'never', why: 'paths is neither a string nor a list of strings' }, warnings: [] };
      if (paths === undefined) return { activation: { kind: 'always', why: 'always (a Claude rule without paths)' }, warnings: [] };
      const parsed = parseGlobs(paths, 'claude', '', path);
      if (parsed.globs.length === 0) return { activation: { kind: 'never', why: noUsableGlob('paths', parsed.warnings) }, warnings: parsed.warnings };
      return { activation: { kind: 'globs', field: 'paths', globs: parsed.globs }, warnings: parsed.warnings };
    },
  });
}
