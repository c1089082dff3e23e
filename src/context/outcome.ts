/**
 * @module context/outcome
 * Exactly one outcome per provider per run, and the ordered entries that survived it.
 */
import type { Entry } from './entry.ts';
import type { Category } from './provider.ts';
import type { RuleVerdict } from './rule-verdict.ts';

export const OUTCOME_KINDS = [
  'included',
  'empty',
  'disabled',
  'turn-gated',
  'capability-gated',
  'timed-out',
  'failed',
  'budget-excluded',
  'invalid',
] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

export interface ProviderOutcome {
  name: string;
  category: Category;
  outcome: OutcomeKind;
  reason?: string;
  /** Characters (UTF-16 code units) and tokens of this provider's bodies that reached the context. */
  chars: number;
  tokens: number;
  durationMs: number;
  /** One per instruction file the provider found (rules), when it said; bounded (see rule-verdict). */
  verdicts?: RuleVerdict[];
}

/** An entry placed in the context, with the provider that made it and what budgeting did to it. */
export interface ContextEntry extends Entry {
  provider: string;
  category: Category;
  chars: number;
  tokens: number;
  truncated: boolean;
}
