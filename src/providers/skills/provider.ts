/**
 * @module providers/skills/provider
 * Repository skills (Agent Skills `SKILL.md` directories) at the pinned commit: a compact index
 * of every skill, plus the full instructions of the skills the task selected.
 *
 * Where skills are found: under the configured roots, and under the nested roots
 * (`.agents/skills/`, `.claude/skills/`) of every directory on the way from the repository root
 * to the working directory and to each focus path, as Claude Code finds a sub-project's skills
 * (chain-roots.ts). Skills of the configured roots and the working directory's chain depend only
 * on the commit and working directory; those only the focus paths bring depend on the task.
 *
 * Budget split: selected skills come first, because the task asked for them. The index keeps
 * `minIndexTokens` (at most half the budget) whatever is selected; the rest is shared evenly by
 * the selected bodies, each capped at `maxSelectedTokens` (room for a whole skill written to the
 * spec's guidance); whatever the bodies leave goes back to the index, up to `maxIndexTokens`.
 * The entries together always fit the budget, so the runner never has to cut them, and the
 * index stays first in the output (it is what the total budget should drop last).
 *
 * A selected skill's section ends with the files bundled in its directory (paths and sizes
 * from the listing, nothing read), so the model knows what it can read next.
 *
 * Stability: see index-plan.ts. The index is `commit` while it is what every task on the commit
 * gets; what the focus paths bring, a ranking that cut it, or a selection that shortened it
 * make the part they change `task`. Selected bodies are `task`.
 *
 * @example
 * const registry = createRegistry([createRulesProvider(), createSkillsProvider({ budget: 4_000 })]);
 * // task.request 'please use $release-notes' -> entries 'Skills index', 'Selected skill: release-notes'
 */
import type { EntryInput } from '../../context/entry.ts';
import { defineProvider, type Provider } from '../../context/provider.ts';
import type { Built } from '../../lib/lazy-schema.ts';
import { countTokens } from '../../context/tokens.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { parseRoot, type SkillsConfigSchema } from './config.ts';
import { planIndex, type PlannedIndex } from './index-plan.ts';
import { laterTurnSkills } from './later-turn.ts';
import type { LoadedIndex } from './load-index.ts';
import { taskWords } from './rank.ts';
import { skillsRuleSet } from './rule-set.ts';
import { loadIndexes, mergeIndexes } from './task-indexes.ts';
import { skillsReadPlan } from './read-plan.ts';
import { selectedEntries } from './selected-reads.ts';
import { duplicateNameWarnings, selectSkills } from './select.ts';
import type { Skill } from './skill-index.ts';
import { skillsSettings } from './settings.ts';

export interface SkillsProviderOptions {
  timeoutMs?: number;
  /** Tokens for the index and the selected bodies together. */
  budget?: number;
  position?: number;
}

export const INDEX_TITLE = 'Skills index';
export const FOCUS_INDEX_TITLE = 'Skills index: focus paths';

export function createSkillsProvider(options: SkillsProviderOptions = {}): Provider<Built<typeof SkillsConfigSchema>> {
  return defineProvider({
    ...skillsSettings(),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    requires: ['repo:read'],
    // Later turns: only the skills the host asked for by name since (later-turn.ts).
    turns: 'moved',
    timeoutMs: options.timeoutMs ?? 5_000,
    ...(options.position === undefined ? {} : { position: options.position }),
      plan: ({ task, config }) => skillsReadPlan(config, task),
    ruleSet: skillsRuleSet,
    async run(request) {
      const { task, snapshot, cache, config, budget, signal } = request;
      // The runner runs repo:read providers only with a snapshot pinned at the task commit.
      if (!snapshot) throw new Error('no repository snapshot was provided');
      if (request.turn > 0) return laterTurnSkills(request, snapshot);
      const { shared, focus } = await loadIndexes(cache, snapshot, config, task, signal);
      const { all, focusOnly: focusSkills, files } = mergeIndexes(shared, focus);

      const selection = selectSkills(all, task.request, task.skills);
      const warnings = [...shared.index.warnings, ...(focus?.index.warnings ?? []), ...duplicateNameWarnings(all), ...selection.warnings];

      const reserve = all.length > 0 ? Math.min(config.minIndexTokens, Math.floor(budget / 2)) : 0;
      const count = selection.selected.length;
      const share = count > 0 ? Math.min(config.maxSelectedTokens, Math.floor((budget - reserve) / count)) : 0;
      const { entries: selected, warnings: unread } = await selectedEntries(snapshot, selection.selected, files, config, share, signal);
      warnings.push(...unread);

      const used = selected.reduce((sum, entry) => sum + countTokens(entry.body), 0);
      const planned = planIndex({
        shared: shared.index.skills,
        focus: focusSkills,
        selected: selection.selected,
        words: taskWords(task.request, task.focusPaths),
        budget: Math.min(config.maxIndexTokens, budget - used),
        unselectedBudget: Math.min(config.maxIndexTokens, budget),
      });
      warnings.push(...planned.warnings);
      if (all.length === 0) warnings.push(`no skills under ${config.roots.join(', ')}${config.nestedRoots.length > 0 && task.cwd !== '' ? ` or the nested roots ${config.nestedRoots.join(', ')} on the way to ${task.cwd}` : ''}`);
      if (planned.entries.length === 0) return { entries: selected, notes: warnings };
      const indexes = planned.entries.map((index, i): EntryInput => ({
        title: index.kind === 'focus' ? FOCUS_INDEX_TITLE : INDEX_TITLE,
        body: index.body,
        source: indexSource(snapshot, rootsOf(index, shared, focus), index.skills),
        freshness: 'pinned',
        stability: index.stability,
        warnings: i === 0 ? warnings : [],
      }));
      return { entries: [...indexes, ...selected], notes: [] };
    },
  });
}

function rootsOf(index: PlannedIndex, shared: LoadedIndex, focus: LoadedIndex | undefined): string[] {
  if (index.kind === 'shared') return shared.index.roots;
  if (index.kind === 'focus') return focus?.index.roots ?? [];
  return [...shared.index.roots, ...(focus?.index.roots ?? [])];
}

/**
 * The deepest directory every root that yielded a skill lies under, so one source names where the
 * index came from: `.agents/skills` when only that of the default roots holds skills.
 */
function indexSource(snapshot: Snapshot, roots: readonly string[], skills: readonly Skill[]): EntryInput['source'] {
  const prefixes = roots.flatMap((text) => {
    const parsed = parseRoot(text);
    return parsed.ok ? [parsed.root.prefix] : [];
  });
  const used = prefixes.filter((prefix) => prefix === '' || skills.some((skill) => skill.path.startsWith(`${prefix}/`)));
  const split = used.map((prefix) => (prefix === '' ? [] : prefix.split('/')));
  const [first = [], ...others] = split;
  let depth = first.length;
  for (const other of others) {
    depth = Math.min(depth, other.length);
    while (depth > 0 && first.slice(0, depth).join('/') !== other.slice(0, depth).join('/')) depth--;
  }
  const path = first.slice(0, depth).join('/');
  return { uri: snapshot.uri(path), ...(path === '' ? {} : { path }), revision: snapshot.commit };
}
