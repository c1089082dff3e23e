/**
 * @module providers/rules/decide
 * Whether a rule file applies to this task, and why, from its format's activation and the task's
 * focus: the working directory (matched as a directory) and the focus paths. What applies
 * whatever the task touches, or because of the working directory, is commit-stable (every task
 * on that commit and directory gets it); what only a focus path brings is task-stable.
 */
import type { Stability } from '../../context/entry.ts';
import { quote, type RuleGlob } from './globs.ts';
import type { FoundRule } from './formats/rule-file.ts';

export interface Focus {
  cwd: string;
  /** The directories from the root to the working directory (their rules are commit-stable). */
  cwdChain: ReadonlySet<string>;
  focusPaths: readonly string[];
}

export type Decision =
  | { verdict: 'applied'; reason: string; stability: Stability }
  | { verdict: 'indexed'; reason: string; stability: Stability }
  | { verdict: 'not-applied'; reason: string; unmatched?: RuleGlob[] };

const MAX_LISTED_GLOBS = 5;

export function decide(rule: FoundRule, focus: Focus): Decision {
  // A nested rules directory reached only through a focus path's chain is the task's, not the commit's.
  const placed: Stability = focus.cwdChain.has(rule.root) ? 'commit' : 'task';
  const { activation } = rule;
  switch (activation.kind) {
    case 'always':
      return { verdict: 'applied', reason: activation.why, stability: placed };
    case 'requested':
      return { verdict: 'indexed', reason: 'agent-requested: listed in the rules index by its description', stability: placed };
    case 'never':
      return { verdict: 'not-applied', reason: activation.why };
    case 'globs': {
      const all = activation.globs.find((glob) => glob.all);
      if (all) return { verdict: 'applied', reason: `always (${activation.field} ${quote(all.text)} matches every file)`, stability: placed };
      const onCwd = activation.globs.find((glob) => glob.test(focus.cwd));
      if (onCwd) return { verdict: 'applied', reason: `${activation.field} ${quote(onCwd.text)} matched the working directory ${focus.cwd || '.'}`, stability: placed };
      for (const glob of activation.globs) {
        const path = focus.focusPaths.find((candidate) => glob.test(candidate));
        if (path !== undefined) return { verdict: 'applied', reason: `${activation.field} ${quote(glob.text)} matched ${path}`, stability: 'task' };
      }
      const listed = activation.globs.slice(0, MAX_LISTED_GLOBS).map((glob) => quote(glob.text)).join(', ');
      const more = activation.globs.length > MAX_LISTED_GLOBS ? ` and ${activation.globs.length - MAX_LISTED_GLOBS} more` : '';
      return { verdict: 'not-applied', reason: `no focus path matched ${activation.field} ${listed}${more}`, unmatched: activation.globs };
    }
  }
}
