/**
 * @module providers/skills/provider
 * Repository skills (Agent Skills `SKILL.md` directories) at the pinned commit: a compact index
 * of every skill, plus the full instructions of the skills the task selected.
 *
 * Budget split: selected skills come first, because the task asked for them. The index keeps
 * `minIndexTokens` (at most half the budget) whatever is selected; the rest is shared evenly by
 * the selected bodies, each capped at `maxSelectedTokens`; whatever the bodies leave unused
 * goes back to the index. The entries together always fit the budget, so the runner never has
 * to cut them, and the index stays first in the output (it is what the total budget should
 * drop last).
 *
 * A selected skill's section ends with the files bundled in its directory (paths and sizes
 * from the listing, nothing read), so the model knows what it can read next.
 *
 * Stability: the index is `commit` (every task on the commit gets it), unless this task's
 * selection left it less room than the whole budget and it had to be shortened for that: then
 * it is `task`, so it does not split the prefix other tasks share. Selected bodies are `task`.
 *
 * @example
 * const registry = createRegistry([createRulesProvider(), createSkillsProvider({ budget: 4_000 })]);
 * // task.request 'please use $release-notes' -> entries 'Skills index', 'Selected skill: release-notes'
 */
import type { EntryInput } from '../../context/entry.ts';
import { defineProvider, type Provider } from '../../context/provider.ts';
import { countTokens } from '../../context/tokens.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { configuredRoots, SkillsConfigSchema, type SkillsConfig } from './config.ts';
import { listBundledFiles, type BundledListing } from './bundled-files.ts';
import { cachedSkillIndex } from './index-cache.ts';
import { fitIndex } from './index-entry.ts';
import { describeUnreadable } from './load-index.ts';
import { skillsReadPlan } from './read-plan.ts';
import { selectedEntry, type SkillFile } from './selected-entry.ts';
import { duplicateNameWarnings, selectSkills } from './select.ts';
import type { Skill } from './skill-index.ts';

export interface SkillsProviderOptions {
  timeoutMs?: number;
  /** Tokens for the index and the selected bodies together. */
  budget?: number;
  position?: number;
}

export const INDEX_TITLE = 'Skills index';

export function createSkillsProvider(options: SkillsProviderOptions = {}): Provider<typeof SkillsConfigSchema> {
  return defineProvider({
    name: 'skills',
    category: 'skills',
    config: SkillsConfigSchema,
    limits: ['maxDepth', 'maxDirectories', 'maxSkillBytes', 'maxBundledFiles', 'maxBundledDepth'],
    uncapped: {
      maxSelectedTokens: 'tokens of the budget, which the host caps: a selected skill never gets more than its share of it',
      minIndexTokens: 'tokens of the budget, which the host caps, and at most half of it',
    },
    requires: ['repo:read'],
    turns: 'first',
    timeoutMs: options.timeoutMs ?? 5_000,
    budget: options.budget ?? 6_000,
    ...(options.position === undefined ? {} : { position: options.position }),
    plan: ({ config }) => skillsReadPlan(config),
    async run({ task, snapshot, cache, config, budget, signal }) {
      // The runner runs repo:read providers only with a snapshot pinned at the task commit.
      if (!snapshot) throw new Error('no repository snapshot was provided');
      const { index, files } = await cachedSkillIndex(cache, snapshot, config, signal);
      const selection = selectSkills(index.skills, task.request, task.skills);
      const warnings = [...index.warnings, ...duplicateNameWarnings(index.skills), ...selection.warnings];

      const reserve = index.skills.length > 0 ? Math.min(config.minIndexTokens, Math.floor(budget / 2)) : 0;
      const count = selection.selected.length;
      const share = count > 0 ? Math.min(config.maxSelectedTokens, Math.floor((budget - reserve) / count)) : 0;
      const selected: EntryInput[] = [];
      const [reads, listings] = await Promise.all([readSelected(snapshot, selection.selected, files, config, signal), listSelected(snapshot, selection.selected, config, signal)]);
      reads.forEach(([skill, file], i) => {
        if (typeof file === 'string') {
          warnings.push(`selected skill ${skill.name}: ${skill.path} ${file}`);
          return;
        }
        const listing = listings[i];
        const bundled = listing ? { listing, maxFiles: config.maxBundledFiles, maxDepth: config.maxBundledDepth } : undefined;
        const made = selectedEntry(snapshot, skill, file, { maxBytes: config.maxSkillBytes, maxTokens: share, ...(bundled ? { bundled } : {}) });
        if (made.ok) selected.push(made.entry);
        else warnings.push(made.warning);
      });

      const used = selected.reduce((sum, entry) => sum + countTokens(entry.body), 0);
      const fitted = index.skills.length > 0 ? fitIndex(index.skills, budget - used) : { warnings: [] };
      warnings.push(...fitted.warnings);
      if (index.skills.length === 0) warnings.push(`no skills under ${config.roots.join(', ')}`);
      if (fitted.body === undefined) return { entries: selected, notes: warnings };
      // The index is the same for every task on the commit unless this task's selection shortened it.
      const shared = used === 0 || fitIndex(index.skills, budget).body === fitted.body;
      const indexEntry: EntryInput = {
        title: INDEX_TITLE,
        body: fitted.body,
        source: indexSource(snapshot, config, index.skills),
        freshness: 'pinned',
        stability: shared ? 'commit' : 'task',
        warnings,
      };
      return { entries: [indexEntry, ...selected], notes: [] };
    },
  });
}

/** Bodies of the selected skills, from this run's reads when the index was just built, else read now. */
async function readSelected(
  snapshot: Snapshot,
  skills: readonly Skill[],
  files: ReadonlyMap<string, SkillFile>,
  config: SkillsConfig,
  signal: AbortSignal,
): Promise<Array<[Skill, SkillFile | string]>> {
  return Promise.all(
    skills.map(async (skill): Promise<[Skill, SkillFile | string]> => {
      const known = files.get(skill.path);
      if (known) return [skill, known];
      // The index already names the skill; its body is what a source short of API budget may skip.
      const read = await snapshot.read(skill.path, { maxBytes: config.maxSkillBytes, signal, optional: true });
      if (read.status === 'failed') throw new Error(`could not read selected skill ${skill.path}: ${read.reason}`);
      return [skill, read.status === 'ok' ? read : describeUnreadable(read)];
    }),
  );
}

/** What each selected skill bundles besides its SKILL.md; none when `maxBundledFiles` is 0. */
async function listSelected(snapshot: Snapshot, skills: readonly Skill[], config: SkillsConfig, signal: AbortSignal): Promise<Array<BundledListing | undefined>> {
  if (config.maxBundledFiles === 0) return skills.map(() => undefined);
  const limits = { maxFiles: config.maxBundledFiles, maxDepth: config.maxBundledDepth };
  return Promise.all(skills.map((skill) => listBundledFiles(snapshot, skill.path, limits, signal)));
}

/**
 * The deepest directory every root that yielded a skill lies under, so one source names where the
 * index came from: `.agents/skills` when only that of the default roots holds skills.
 */
function indexSource(snapshot: Snapshot, config: SkillsConfig, skills: readonly Skill[]): EntryInput['source'] {
  const used = configuredRoots(config).filter((root) => root.prefix === '' || skills.some((skill) => skill.path.startsWith(`${root.prefix}/`)));
  const prefixes = used.map((root) => (root.prefix === '' ? [] : root.prefix.split('/')));
  const [first = [], ...others] = prefixes;
  let depth = first.length;
  for (const other of others) {
    depth = Math.min(depth, other.length);
    while (depth > 0 && first.slice(0, depth).join('/') !== other.slice(0, depth).join('/')) depth--;
  }
  const path = first.slice(0, depth).join('/');
  return { uri: snapshot.uri(path), ...(path === '' ? {} : { path }), revision: snapshot.commit };
}
