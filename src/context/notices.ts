/**
 * @module context/notices
 * Host statements that stand in for context the model did not get, so it never claims to have
 * followed rules, used skills or checked knowledge it never saw. One notice per `rules`,
 * `skills` or `memory` provider, or provider that declares what it stands for (`missing`, as
 * freshness does), that ended without delivering anything it should have:
 * `capability-gated`, `timed-out`, `failed`, `budget-excluded` or `invalid`.
 *
 * The text is deterministic: it names the outcome and host settings (the provider's configured
 * timeout, the capability gate's reason), never a measured duration or an upstream error
 * message, so a retry with the same outcome renders the same bytes and digest.
 *
 * Placement (see `ORDER_POLICIES`): a notice caused by host settings (trust, the agent's
 * capabilities) is `commit`-stable, like the material it replaces; one caused by this run
 * (a timeout, a failure, the budget) is `task`, so it never sits in the prefix that other tasks
 * on the commit share.
 */
import type { Stability } from './entry.ts';
import type { OutcomeKind, ProviderOutcome } from './outcome.ts';
import type { Category } from './provider.ts';
import type { Registry } from './registry.ts';

/** Bounds of the notices one provider may ask for (`ProviderResult.notices`); they are host text the model reads. */
export const MAX_NOTICES = 8;
export const MAX_NOTICE_CHARS = 4_000;

/** A host statement in place of material that was not read. */
export interface Notice {
  provider: string;
  text: string;
  stability: Stability;
}

/** How a notice names what is missing; a provider may declare its own (`Provider.missing`). */
export interface MissingNotice {
  subject: string;
  plural: boolean;
  /** What the model must not claim. */
  claim: string;
  /** How a failure is said (default `could not be read`). */
  failed?: string;
  /** The long-standing notice for an untrusted task, kept word for word. */
  untrusted?: string;
}
type Missing = MissingNotice;

/** By category; a provider's own `missing` comes first. */
const MISSING: Partial<Record<Category, Missing>> = {
  rules: {
    subject: 'Repository rules (AGENTS.md and similar files)',
    plural: true,
    claim: 'Do not say you followed the repository’s rules; say they were unavailable.',
    untrusted:
      'Repository rules (AGENTS.md and similar files) were not read: this task is untrusted, so no repository content was read automatically. Treat the repository’s own instructions as unknown.',
  },
  skills: {
    subject: 'Repository skills',
    plural: true,
    claim: 'Do not say you used the repository’s skills; say they were unavailable.',
    untrusted: 'Repository skills were not indexed: this task is untrusted, so no repository content was read automatically.',
  },
  memory: {
    subject: 'Knowledge recorded about this repository',
    plural: false,
    claim: 'Do not say you checked what was recorded about this repository; say it was unavailable.',
  },
};

const MISSED: readonly OutcomeKind[] = ['capability-gated', 'timed-out', 'failed', 'budget-excluded', 'invalid'];

export function contextNotices(trusted: boolean, outcomes: readonly ProviderOutcome[], registry: Registry): Notice[] {
  return outcomes.flatMap((outcome): Notice[] => {
    const missing = registry.get(outcome.name)?.missing ?? MISSING[outcome.category];
    if (!missing || !MISSED.includes(outcome.outcome)) return [];
    if (!trusted && outcome.outcome === 'capability-gated' && missing.untrusted) {
      return [{ provider: outcome.name, text: missing.untrusted, stability: 'commit' }];
    }
    const timeoutMs = registry.get(outcome.name)?.timeoutMs;
    return [{ provider: outcome.name, text: `${what(missing, outcome, timeoutMs)} ${missing.claim}`, stability: outcome.outcome === 'capability-gated' ? 'commit' : 'task' }];
  });
}

function what({ subject, plural, failed = 'could not be read' }: Missing, outcome: ProviderOutcome, timeoutMs: number | undefined): string {
  const [were, they] = plural ? ['were', 'they'] : ['was', 'it'];
  switch (outcome.outcome) {
    case 'capability-gated':
      return `${subject} ${were} not read: ${outcome.reason ?? 'a capability it needs was not granted'}.`;
    case 'timed-out':
      return `${subject} ${failed} (timed out${timeoutMs === undefined ? '' : ` after ${timeoutMs} ms`}).`;
    case 'budget-excluded':
      return `${subject} ${were} left out: ${they} did not fit the context budget.`;
    case 'invalid':
      return `${subject} ${failed} (the provider’s configuration or output was invalid).`;
    default:
      return `${subject} ${failed} (the provider failed).`;
  }
}

/**
 * A notice for the entries the total budget dropped from a provider that delivered others (the
 * runner drops whole entries from the end of the render order): it names them, so the model never
 * claims to have followed a rules file it was not given. Titles are quoted as JSON strings.
 */
export function droppedNotice(name: string, category: Category, titles: readonly string[], registry: Registry): Notice | undefined {
  const missing = registry.get(name)?.missing ?? MISSING[category];
  if (!missing || titles.length === 0) return undefined;
  const named = titles.slice(0, 10).map((title) => JSON.stringify(title));
  const more = titles.length > named.length ? ` and ${titles.length - named.length} more` : '';
  return {
    provider: name,
    text: `Part of ${missing.subject.charAt(0).toLowerCase()}${missing.subject.slice(1)} was left out to fit the context budget: ${named.join(', ')}${more}. ${missing.claim.replace(/^Do not say you /, 'For those, do not say you ')}`,
    stability: 'task',
  };
}
