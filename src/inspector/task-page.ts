/**
 * @module inspector/task-page
 * Everything the task page shows, gathered before rendering: the header facts with their links,
 * each turn's anatomy and provider outcomes, and the transcript timeline. Pure: the route
 * fetches the inspection and the views only lay this out.
 *
 * Bounded whatever the task holds: turn 0 and the latest turns are shown in full (at most
 * `TURNS_SHOWN`), the timeline one page at a time, and every text cut by what it costs the
 * page (see `bounded`); what is left out is named, with where to read it whole.
 */
import type { ProviderOutcome } from '../context/outcome.ts';
import type { RuleVerdict } from '../context/rule-verdict.ts';
import type { SettingsReport } from '../context/settings/report.ts';
import { githubLine } from '../notify/check-run-summary.ts';
import type { InspectedTurn, Inspection } from '../tasks/inspection.ts';
import type { MailboxSummary } from '../tasks/task-results.ts';
import { turnAnatomy, type Anatomy } from './anatomy.ts';
import { checksModel, type ChecksModel } from './checks.ts';
import { freshnessModel, type FreshnessModel } from './freshness.ts';
import { repositoryLinks, safeHref, type RepositoryLinks } from './links.ts';
import { timelinePage, type TimelinePage } from './timeline.ts';
import { providerBudgets, type BudgetRow } from './budgets.ts';
import { contextWindow, requestItems, type WindowModel } from './window.ts';
import { cachedShare, type TurnUsage } from '../tasks/turn-usage.ts';

/** Turns whose sections a page shows in full: turn 0 and the latest ones. */
export const TURNS_SHOWN = 20;

export interface Linked {
  text: string;
  href?: string | undefined;
}

export interface TaskHeader {
  id: string;
  origin: string;
  tenant: string;
  repository: Linked;
  commit: Linked | null;
  /** The ref the commit was resolved from, or how it was pinned. */
  ref: string;
  cwd: string;
  pullRequest?: { number: number; link: Linked; baseRef?: string | undefined; head: Linked; fromFork: boolean } | undefined;
  agent: string;
  /** The client that reads the context (`codex`, `claude-code@2.1.332`), or `none`. */
  client: string;
  trusted: boolean;
  skills: string[];
  status: string;
  reason: string | null;
  attempts: number;
  createdAt: string;
  /** When turn 0 was assembled. */
  assembledAt: string | null;
  expiresAt: string;
  request: string;
  /** Follow-ups appended to the transcript (`POST /tasks/:id/mailbox`, pull request comments). */
  mailbox: MailboxSummary;
}

export interface OutcomeRow extends ProviderOutcome {
  /** This provider's duration over the turn's longest, 0..1. */
  share: number;
}

/** One rule file's verdict, with a link to the file at the turn's commit when it has one. */
export interface RuleFileRow extends RuleVerdict {
  provider: string;
  href?: string | undefined;
}

export interface TurnModel {
  turn: number;
  digest: string;
  chars: number;
  tokens: number;
  agent: string;
  /** The client the turn was assembled for, when not `none`. */
  client?: string | undefined;
  /** The agent configuration's hash, when the turn recorded it. */
  agentHash?: string | undefined;
  commit: Linked | null;
  createdAt: string;
  system: string[];
  tools: string[];
  hostItemId: string | null;
  /** Null when the turn added nothing to the transcript. */
  anatomy: Anatomy | null;
  /** What filled the request, segment by segment. */
  window: WindowModel;
  /** Each provider's tokens against its budget, and what was kept from the model. */
  budgets: BudgetRow[];
  /** What the model API reported for the request, once a host posted it. */
  usage?: UsageModel | undefined;
  outcomes: OutcomeRow[];
  /** Every rule file the turn's providers found, in their order (anchor `#rule-files-<turn>`). */
  ruleFiles: RuleFileRow[];
  settings?: SettingsReport | undefined;
  github?: string | undefined;
}

export interface UsageModel extends TurnUsage {
  /** Of the input, read from the cache, 0..1. */
  share: number;
}

export interface TaskPageModel {
  header: TaskHeader;
  /** In order; turns between turn 0 and the latest ones are left out past `TURNS_SHOWN`. */
  turns: TurnModel[];
  /** Turns left out of `turns`, first and last, when any were. */
  turnsNotShown?: { first: number; last: number; count: number } | undefined;
  timeline: TimelinePage;
  /** Present when the page was asked to read back what changed. */
  freshness?: FreshnessModel | undefined;
  /** Checks a host asked for before acting, newest first. */
  checks: ChecksModel;
}

export interface PageContext {
  /** `GITHUB_API_URL`, for links to GitHub or GitHub Enterprise pages. */
  githubApiUrl: string;
  /** Index of the first transcript item the timeline shows (`?from=`); 0 by default. */
  timelineFrom?: number;
}

export function taskPageModel(inspection: Inspection, context: PageContext): TaskPageModel {
  const { task } = inspection;
  const links = repositoryLinks(task.request.repo, context.githubApiUrl);
  const contents = new Map(inspection.transcript.map(({ item }) => [item.id, 'content' in item ? item.content : '']));
  const hostTurns = new Map(inspection.turns.flatMap((turn) => (turn.hostItemId ? [[turn.hostItemId, turn.turn] as const] : [])));
  const system = inspection.turns.find((turn) => turn.turn === 0)?.system ?? [];
  const window = (turn: InspectedTurn) => contextWindow({ turn, system, items: requestItems(inspection.transcript, turn.turn, turn.hostItemId), hostTurns });
  const begun = Math.max(-1, ...inspection.turns.map((turn) => turn.turn));
  const shown = inspection.turns.length <= TURNS_SHOWN ? inspection.turns : [...inspection.turns.slice(0, 1), ...inspection.turns.slice(-(TURNS_SHOWN - 1))];
  const left = inspection.turns.filter((turn) => !shown.includes(turn));
  return {
    header: header(inspection, links),
    turns: shown.map((turn) => turnModel(turn, contents, links, window(turn))),
    turnsNotShown: left.length > 0 ? { first: left[0]?.turn ?? 0, last: left[left.length - 1]?.turn ?? 0, count: left.length } : undefined,
    // An item whose turn is not shown in full gets its preview in the timeline instead.
    timeline: timelinePage(inspection.transcript, hostTurns, new Set(shown.map((turn) => turn.turn)), begun, context.timelineFrom),
    freshness: inspection.freshness ? freshnessModel(inspection.freshness, links) : undefined,
    checks: checksModel(task.checks),
  };
}

function commitLink(sha: string | null, links: RepositoryLinks): Linked | null {
  return sha ? { text: sha, href: links.commit(sha) } : null;
}

function header(inspection: Inspection, links: RepositoryLinks): TaskHeader {
  const { task } = inspection;
  const { request } = task;
  const pr = request.pullRequest;
  return {
    id: task.id,
    origin: request.origin,
    tenant: request.tenant,
    repository: { text: request.repo, href: links.repository },
    commit: commitLink(task.commit, links),
    ref: request.baseCommit ? `base commit ${request.baseCommit}${pr?.baseRef ? ` of ${pr.baseRef}` : ''}` : (request.ref ?? 'HEAD (default branch)'),
    cwd: request.cwd === '' ? '.' : request.cwd,
    pullRequest: pr
      ? {
          number: pr.number,
          link: { text: `#${pr.number}`, href: safeHref(pr.url) },
          baseRef: pr.baseRef,
          head: { text: pr.headSha, href: links.commit(pr.headSha) },
          fromFork: pr.fromFork,
        }
      : undefined,
    agent: request.agent,
    client: request.client ?? 'none',
    trusted: request.trusted,
    skills: request.skills,
    status: task.status,
    reason: task.reason,
    attempts: task.attempts,
    createdAt: task.createdAt,
    assembledAt: inspection.turns.find((turn) => turn.turn === 0)?.createdAt ?? null,
    expiresAt: task.expiresAt,
    request: request.request,
    mailbox: task.mailbox,
  };
}

function turnModel(turn: InspectedTurn, contents: ReadonlyMap<string, string>, links: RepositoryLinks, window: WindowModel): TurnModel {
  const content = turn.hostItemId ? contents.get(turn.hostItemId) : undefined;
  const longest = Math.max(0, ...turn.providers.map((provider) => provider.durationMs));
  const anatomy = content === undefined ? null : turnAnatomy(content, turn.entries, links, turn.turn);
  return {
    turn: turn.turn,
    digest: turn.digest,
    chars: turn.chars,
    tokens: turn.tokens,
    agent: turn.agent,
    client: turn.client,
    agentHash: turn.agentHash,
    commit: commitLink(turn.commit, links),
    createdAt: turn.createdAt,
    system: turn.system,
    tools: turn.tools.map((tool) => tool.name),
    hostItemId: turn.hostItemId,
    anatomy,
    window,
    budgets: providerBudgets(turn, turn.settings, anatomy?.ok ? anatomy.sections : []),
    usage: turn.usage ? { ...turn.usage, share: cachedShare(turn.usage) } : undefined,
    outcomes: turn.providers.map((provider) => ({ ...provider, share: longest > 0 ? provider.durationMs / longest : 0 })),
    ruleFiles: turn.providers.flatMap((provider) =>
      (provider.verdicts ?? []).map((verdict) => ({ ...verdict, provider: provider.name, href: verdict.blob && turn.commit ? links.file(verdict.path, turn.commit) : undefined })),
    ),
    settings: turn.settings,
    github: turn.github ? githubLine(turn.github) : undefined,
  };
}
