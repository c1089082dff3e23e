/**
 * @module providers/rules/rule-set-files
 * The rules provider's rule set at a snapshot (context/rule-set), as freshness compares it at two
 * commits: every file turn 0 would find for the task (rule-set.ts) with its verdict, the files
 * they import, and the files of a name the provider reads that another file of their directory
 * shadows (a `CLAUDE.md` beside an `AGENTS.md`, an `AGENTS.md` beside an `AGENTS.override.md`).
 * A directory file names the focus it applies to, so a change can say for whom.
 */
import type { ProviderRuleSet, RuleSetFile, RuleSetRequest } from '../../context/rule-set.ts';
import type { RulesConfig } from './config.ts';
import type { FormatSwitch } from './format-config.ts';
import { withImports } from './pieces.ts';
import { gatherRules } from './rule-set.ts';

const SWITCHES: readonly (FormatSwitch | 'imports')[] = ['copilotInstructions', 'githubInstructions', 'cursorRules', 'legacyCursorRules', 'claudeMemory', 'claudeRules', 'imports'];

export async function rulesRuleSet(request: RuleSetRequest<RulesConfig>): Promise<ProviderRuleSet> {
  const { snapshot, task, config, signal } = request;
  const gathered = await gatherRules(snapshot, { task, focusFiles: request.focusFiles, config, signal });
  const imported = await withImports([...gathered.ranked.map(({ piece }) => piece), ...gathered.pieces], { snapshot, config, signal });
  const scopes = new Map(gathered.chains.files.map((file) => [file.path, file.appliesTo]));
  const files: RuleSetFile[] = [...gathered.verdicts, ...imported.verdicts].map(({ entry: _entry, ...verdict }) => {
    const scope = verdict.format === 'directory-file' ? scopes.get(verdict.path) : undefined;
    return scope ? { ...verdict, scope } : verdict;
  });
  // The other names present beside a directory's instruction file: the first present is read, the rest are shadowed.
  for (const other of gathered.chains.others) {
    const name = other.path.slice(other.path.lastIndexOf('/') + 1);
    if (other.by === undefined || !config.filenames.includes(name)) continue;
    files.push({ path: other.path, format: 'directory-file', verdict: 'shadowed', reason: `shadowed by ${other.by} in ${other.dir || '.'}`, by: other.by, ...scopeOf(scopes, other.by) });
  }
  return { files, reads: [`instruction file names ${config.filenames.join(', ')}`, ...SWITCHES.filter((name) => !config[name]).map((name) => `${name} off`)] };
}

function scopeOf(scopes: ReadonlyMap<string, readonly string[]>, path: string): { scope?: readonly string[] } {
  const scope = scopes.get(path);
  return scope ? { scope } : {};
}
