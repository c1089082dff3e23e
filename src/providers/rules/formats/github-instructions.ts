/**
 * @module providers/rules/formats/github-instructions
 * GitHub Copilot's path-specific instructions, `.github/instructions/**\/*.instructions.md`:
 * frontmatter `applyTo` (comma-separated globs, as VS Code reads them) says which files they
 * apply to; without it they are never applied automatically. `excludeAgent: code-review` or
 * `coding-agent` keeps them from one of Copilot's agents; Groundwork counts the agents named in
 * `reviewAgents` as code review and every other as a coding agent.
 */
import { noUsableGlob, parseGlobs } from '../globs.ts';
import type { AgentKind, FormatContext, FormatFinding } from './context.ts';
import { globsField, stringField } from './rule-frontmatter.ts';
import { findScoped } from './scoped.ts';

export const GITHUB_INSTRUCTIONS_DIR = '.github/instructions';
export const INSTRUCTIONS_SUFFIX = '.instructions.md';

const EXCLUDABLE = new Set(['code-review', 'coding-agent']);

export async function findGithubInstructions(context: FormatContext, agentKind: AgentKind): Promise<FormatFinding> {
  let depends = false;
  const found = await findScoped(context, {
    format: 'github-instructions',
    dir: GITHUB_INSTRUCTIONS_DIR,
    root: '',
    wanted: (name) => name.toLowerCase().endsWith(INSTRUCTIONS_SUFFIX) && name.length > INSTRUCTIONS_SUFFIX.length,
    activation(fields, path) {
      const warnings: string[] = [];
      const excluded = stringField(fields, 'excludeAgent');
      if (excluded !== undefined && !EXCLUDABLE.has(excluded)) warnings.push(`${path}: excludeAgent ${JSON.stringify(excluded)} is neither code-review nor coding-agent, ignored`);
      depends ||= excluded !== undefined && EXCLUDABLE.has(excluded);
      if (excluded === agentKind) return { activation: { kind: 'never', why: `excludeAgent: ${excluded} (this agent counts as ${agentKind})` }, warnings };
      const applyTo = globsField(fields, 'applyTo');
      if (applyTo === 'bad') return { activation: { kind: 'never', why: 'applyTo is neither a string nor a list of strings' }, warnings };
      if (applyTo === undefined) return { activation: { kind: 'never', why: 'no applyTo: Copilot applies such a file only when it is attached by hand' }, warnings };
      const parsed = parseGlobs(applyTo, 'copilot', '', path);
      warnings.push(...parsed.warnings);
      if (parsed.globs.length === 0) return { activation: { kind: 'never', why: noUsableGlob('applyTo', parsed.warnings) }, warnings };
      return { activation: { kind: 'globs', field: 'applyTo', globs: parsed.globs }, warnings };
    },
  });
  return depends ? { ...found, agentKind } : found;
}
