/**
 * @module context/budget
 * Two budgets, both in tokens from `countTokens` over entry bodies (labels are host overhead):
 * - per provider: entries are kept in order; the first that does not fit is cut with a visible
 *   marker; later ones are dropped;
 * - in total: whole entries are dropped from the end of the render order (memory, then skills,
 *   then rules, then system; inside a category the last provider and last entry first) until
 *   the rest fits.
 */
import type { Entry } from './entry.ts';
import type { ContextEntry } from './outcome.ts';
import type { Provider } from './provider.ts';
import { countTokens } from './tokens.ts';
import { truncateToTokens } from './truncate.ts';

export interface ProviderFit {
  kept: ContextEntry[];
  /** Titles of entries that did not fit at all. */
  dropped: string[];
}

/** `budget` is the provider's effective budget: its declared one, or lower if settings lowered it. */
export function fitProviderBudget(provider: Provider, budget: number, entries: readonly Entry[]): ProviderFit {
  const kept: ContextEntry[] = [];
  const dropped: string[] = [];
  let remaining = budget;
  for (const entry of entries) {
    const cut = remaining > 0 ? truncateToTokens(entry.body, remaining, entry.source.path ?? entry.title) : undefined;
    if (!cut) {
      dropped.push(entry.title);
      continue;
    }
    const tokens = countTokens(cut.text);
    remaining = cut.truncated ? 0 : remaining - tokens;
    const warnings = cut.truncated
      ? [...entry.warnings, `truncated to ${provider.name}'s budget of ${budget} tokens: shown ${cut.shown}/${cut.total} chars`]
      : entry.warnings;
    kept.push({
      ...entry,
      body: cut.text,
      warnings,
      provider: provider.name,
      category: provider.category,
      chars: cut.text.length,
      tokens,
      truncated: entry.truncated || cut.truncated,
    });
  }
  return { kept, dropped };
}

export interface TotalFit {
  kept: ContextEntry[];
  /** Provider name -> titles of its entries dropped for the total budget. */
  dropped: Map<string, string[]>;
}

/** `ordered` must already be in render order; dropping walks it backwards. */
export function fitTotalBudget(ordered: readonly ContextEntry[], totalBudget: number): TotalFit {
  let used = ordered.reduce((sum, entry) => sum + entry.tokens, 0);
  const keep = ordered.map(() => true);
  const dropped = new Map<string, string[]>();
  for (let i = ordered.length - 1; i >= 0 && used > totalBudget; i--) {
    const entry = ordered[i];
    if (!entry) continue;
    keep[i] = false;
    used -= entry.tokens;
    dropped.set(entry.provider, [entry.title, ...(dropped.get(entry.provider) ?? [])]);
  }
  return { kept: ordered.filter((_, i) => keep[i]), dropped };
}
