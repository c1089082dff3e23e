/**
 * @module inspector/budgets
 * Per provider of a turn: the tokens it used against its effective budget, and what the budget
 * (or anything else) kept from the model, each linked to the section that shows it: files cut to
 * fit, skills left out of the index, entries dropped for a budget, rule files not applied (linked
 * to the turn's Rule files verdicts), and material not given (with the notice that told the model
 * so). From the turn record alone.
 */
import type { SettingsReport } from '../context/settings/report.ts';
import type { InspectedTurn } from '../tasks/inspection.ts';
import type { SectionModel } from './anatomy.ts';

export interface Cut {
  text: string;
  /** The anatomy section it concerns, when the page shows one. */
  anchor?: string | undefined;
}

export interface BudgetRow {
  provider: string;
  category: string;
  outcome: string;
  tokens: number;
  /** The effective budget; absent for turns stored before settings were recorded. */
  budget?: number | undefined;
  cuts: Cut[];
}

/** Outcomes that mean the provider's material did not reach the model. */
const NOT_GIVEN = new Set(['capability-gated', 'timed-out', 'failed', 'budget-excluded', 'invalid']);

/** Rule files not applied that are named one by one; the Rule files table has the rest. */
const NAMED_VERDICTS = 10;

/** Entry warnings that say something was cut, shortened or left out, rather than a problem of the source. */
const CUT_WARNING = /\b(truncated|left out|shortened|dropped|not searched|stopped after)\b/;

export function providerBudgets(turn: Pick<InspectedTurn, 'turn' | 'providers' | 'entries'>, settings: SettingsReport | undefined, sections: readonly SectionModel[]): BudgetRow[] {
  return turn.providers.map((outcome): BudgetRow => {
    const budget = settings?.providers.find((provider) => provider.name === outcome.name)?.budget;
    const own = sections.filter((section): section is Extract<SectionModel, { kind: 'context' }> => section.kind === 'context' && section.provider === outcome.name);
    const cuts: Cut[] = [];
    for (const section of own) {
      const warnings = (section.entry?.warnings ?? []).filter((warning) => CUT_WARNING.test(warning));
      for (const warning of warnings) cuts.push({ text: `${section.title}: ${warning}`, anchor: section.anchor });
      if (section.truncated && warnings.length === 0) cuts.push({ text: `${section.title}: cut to fit (${section.source.label})`, anchor: section.anchor });
    }
    const notApplied = (outcome.verdicts ?? []).filter((verdict) => verdict.verdict === 'not-applied');
    const verdicts = ruleFilesAnchor(turn.turn);
    for (const verdict of notApplied.slice(0, NAMED_VERDICTS)) cuts.push({ text: `not applied: ${verdict.path} (${verdict.reason})`, anchor: verdicts });
    if (notApplied.length > NAMED_VERDICTS) cuts.push({ text: `+${notApplied.length - NAMED_VERDICTS} more rule files not applied`, anchor: verdicts });
    const notice = sections.find((section) => section.kind === 'notice' && section.provider === outcome.name)?.anchor;
    if (NOT_GIVEN.has(outcome.outcome)) cuts.push({ text: `not given: ${outcome.outcome}${outcome.reason ? ` (${outcome.reason})` : ''}`, anchor: notice });
    else if (outcome.reason && CUT_WARNING.test(outcome.reason)) cuts.push({ text: outcome.reason, anchor: notice });
    return { provider: outcome.name, category: outcome.category, outcome: outcome.outcome, tokens: outcome.tokens, ...(budget === undefined ? {} : { budget }), cuts };
  });
}

/** The turn's Rule files section (views/rule-files.tsx), where every verdict is. */
export const ruleFilesAnchor = (turn: number): string => `rule-files-${turn}`;
