/**
 * @module providers/rules/rule-set-files
 * The rules provider's rule set at a snapshot (context/rule-set), as freshness compares it at two
 * commits: the rule set turn 0 computes (rule-set.ts: every file found, the files they import, the
 * files shadowed beside a directory's instruction file), each with its verdict for the task's
 * client and its row of client cells. A directory file names the focus it applies to, and a
 * shadowed one the file read instead, so a change can say for whom and why.
 */
import type { ProviderRuleSet, RuleSetFile, RuleSetRequest } from '../../context/rule-set.ts';
import type { RulesConfig } from './config.ts';
import type { FormatSwitch } from './format-config.ts';
import { gatherRules, resolve } from './rule-set.ts';

const SWITCHES: readonly (FormatSwitch | 'imports')[] = ['copilotInstructions', 'githubInstructions', 'cursorRules', 'legacyCursorRules', 'claudeMemory', 'claudeRules', 'imports'];

export async function rulesRuleSet(request: RuleSetRequest<RulesConfig>): Promise<ProviderRuleSet> {
  const { snapshot, config } = request;
  const input = { task: request.task, focusFiles: request.focusFiles, config, signal: request.signal };
  const gathered = await gatherRules(snapshot, input);
  const { verdicts } = await resolve(snapshot, input, gathered, false);
  const scopes = new Map(gathered.chains.files.map((file) => [file.path, file.appliesTo]));
  const others = new Map(gathered.chains.others.map((other) => [other.path, other]));
  const files = verdicts.map(({ entry: _entry, found: _found, ...verdict }): RuleSetFile => {
    const other = verdict.format === 'directory-file' ? others.get(verdict.path) : undefined;
    const by = verdict.verdict === 'shadowed' ? other?.by : undefined;
    const scope = verdict.format === 'directory-file' ? scopes.get(other?.by ?? verdict.path) : undefined;
    return { ...verdict, ...(by && other ? { by, reason: `shadowed by ${by} in ${other.dir || '.'}` } : {}), ...(scope ? { scope } : {}) };
  });
  return { files, reads: [`instruction file names ${config.filenames.join(', ')}`, ...SWITCHES.filter((name) => !config[name]).map((name) => `${name} off`)] };
}
