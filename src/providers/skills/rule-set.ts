/**
 * @module providers/skills/rule-set
 * The skills provider's rule set at a snapshot (context/rule-set): every skill its index would
 * list for the task (under the configured roots and the nested roots on the chains of the working
 * directory and the focus paths), found from listings alone, each named with the root it sits
 * under. Freshness compares these at two commits to see a skill root that appeared; what changed
 * inside a root it already watched it compares as the index (freshness/skill-files).
 */
import type { ProviderRuleSet, RuleSetFile, RuleSetRequest } from '../../context/rule-set.ts';
import { chainOf, findChainRoots } from './chain-roots.ts';
import { configuredRoots, type RootPattern, type SkillsConfig } from './config.ts';
import { discoverSkills } from './discover.ts';

export async function skillsRuleSet(request: RuleSetRequest<SkillsConfig>): Promise<ProviderRuleSet> {
  const { snapshot, task, config, signal } = request;
  const covered = new Set(chainOf(task.cwd));
  const focusPaths = task.focusPaths.filter((path) => chainOf(path).some((dir) => !covered.has(dir)));
  const [own, focus] = await Promise.all([
    task.cwd === '' ? { roots: [] } : findChainRoots(snapshot, config, { targets: [task.cwd], label: `the working directory ${task.cwd}` }, signal),
    focusPaths.length === 0 ? { roots: [] } : findChainRoots(snapshot, config, { targets: focusPaths, skip: covered, label: `${focusPaths.length} focus paths` }, signal),
  ]);
  const roots: RootPattern[] = [...configuredRoots(config), ...own.roots, ...focus.roots];
  const discovery = await discoverSkills(snapshot, roots, config, signal);
  // Deepest first, so a skill is named with the most specific root it sits under.
  const prefixes = [...new Set(roots.map((root) => root.prefix))].sort((a, b) => b.length - a.length);
  const files = discovery.found.map((skill): RuleSetFile => {
    const root = prefixes.find((prefix) => prefix === '' || skill.dir === prefix || skill.dir.startsWith(`${prefix}/`)) ?? '';
    return { path: skill.path, format: 'skill', verdict: 'indexed', reason: `a skill under ${root || '.'}`, scope: [root] };
  });
  return { files, reads: [`skill roots ${config.roots.join(', ')}`, `nested skill roots ${config.nestedRoots.join(', ') || 'none'}`] };
}
