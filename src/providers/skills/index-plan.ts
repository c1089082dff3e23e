/**
 * @module providers/skills/index-plan
 * How the skills index is laid out for one task, keeping the prefix tasks share long:
 *
 * - While everything fits, the index of the configured roots and the working directory's chain
 *   is one entry, `commit`-stable (every task on the commit and working directory gets its bytes),
 *   and the skills only the task's focus paths bring are a second, `task`-stable entry after it.
 * - Once skills must be left out, which ones depends on the task: every skill is ranked by a
 *   lexical match of the request and focus paths against name and description (rank.ts), the
 *   selected ones first, and the best are kept in one `task`-stable entry. When the ranking keeps
 *   exactly what the name order would, the entry is the same for every task and stays `commit`.
 * - A selection that leaves the index less room than it would have alone makes it `task` too.
 */
import { countTokens } from '../../context/tokens.ts';
import { FOCUS_INDEX_HEADER, fitIndex } from './index-entry.ts';
import { rankSkills } from './rank.ts';
import { compareSkills, type Skill } from './skill-index.ts';

export interface IndexInput {
  /** Skills of the configured roots and the working directory's chain, in index order. */
  shared: readonly Skill[];
  /** Skills only the focus paths' chains brought, in index order. */
  focus: readonly Skill[];
  selected: readonly Skill[];
  /** The task's words (request and focus paths), for the ranking. */
  words: readonly string[];
  /** What the index may take on this task. */
  budget: number;
  /** What it may take when nothing is selected. */
  unselectedBudget: number;
}

export interface PlannedIndex {
  kind: 'shared' | 'focus' | 'ranked';
  body: string;
  stability: 'commit' | 'task';
  /** The skills listed, for the entry's source. */
  skills: readonly Skill[];
}

export interface IndexPlan {
  entries: PlannedIndex[];
  warnings: string[];
}

export function planIndex(input: IndexInput): IndexPlan {
  const { shared, focus, budget } = input;
  if (shared.length === 0 && focus.length === 0) return { entries: [], warnings: [] };
  // What every task on the commit gets: the shared skills alone, in name order, with the whole index budget.
  const common = shared.length > 0 ? fitIndex(shared, input.unselectedBudget).body : undefined;
  const sameAsAlone = (body: string) => common === body;

  const alone = shared.length > 0 ? fitIndex(shared, budget) : { body: '', warnings: [], dropped: [] };
  if (alone.body !== undefined && alone.dropped.length === 0) {
    const first: PlannedIndex[] = alone.body === '' ? [] : [{ kind: 'shared', body: alone.body, stability: sameAsAlone(alone.body) ? 'commit' : 'task', skills: shared }];
    if (focus.length === 0) return { entries: first, warnings: alone.warnings };
    const rest = fitIndex(focus, budget - countTokens(alone.body), { header: FOCUS_INDEX_HEADER });
    if (rest.body !== undefined && rest.dropped.length === 0) {
      return { entries: [...first, { kind: 'focus', body: rest.body, stability: 'task', skills: focus }], warnings: [...alone.warnings, ...rest.warnings] };
    }
  }

  const all = [...shared, ...focus].sort(compareSkills);
  const chosen = new Set(input.selected.map((skill) => skill.path));
  const priority = [...all.filter((skill) => chosen.has(skill.path)), ...rankSkills(all.filter((skill) => !chosen.has(skill.path)), input.words)];
  const ranked = fitIndex(all, budget, { priority });
  if (ranked.body === undefined) return { entries: [], warnings: ranked.warnings };
  const left = new Set(ranked.dropped);
  const stability = focus.length === 0 && sameAsAlone(ranked.body) ? 'commit' : 'task';
  return { entries: [{ kind: 'ranked', body: ranked.body, stability, skills: all.filter((skill) => !left.has(skill.name)) }], warnings: ranked.warnings };
}
