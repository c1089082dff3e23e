/**
 * @module mcp/answers
 * Tool results in words and as JSON, from the values the task and knowledge services answer.
 * Pure and shared by the remote and the local server, so both say the same thing the same way.
 * The text is what a model reads: the context itself first, then one line of where it came from.
 */
import { turnContext } from '../context/host-items.ts';
import type { Knowledge } from '../context/knowledge.ts';
import type { MailboxItem } from '../context/transcript.ts';
import type { AssembledTurn } from '../context/turn-schema.ts';
import { checkLine } from '../checks/describe.ts';
import type { CheckRecord } from '../checks/result.ts';
import { short } from '../freshness/compare.ts';
import { reportLines, somethingChanged } from '../freshness/describe.ts';
import type { FreshnessReport } from '../freshness/report.ts';
import type { ToolAnswer } from './backend.ts';

export interface TurnFacts {
  taskId: string;
  /** The inspector page, when this host has one to link. */
  viewUrl?: string | null;
}

/** A turn as the model reads it, with its digest, commit and provider outcomes as JSON. */
export function turnAnswer(turn: AssembledTurn, facts: TurnFacts): ToolAnswer {
  const context = turnContext(turn);
  const where = [
    `Groundwork task ${facts.taskId}, turn ${turn.turn}`,
    turn.commit ? `pinned at ${turn.commit}` : 'no commit pinned',
    turn.repository ? `of ${turn.repository}` : undefined,
    `digest ${turn.digest}`,
    facts.viewUrl ? `inspector ${facts.viewUrl}` : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
  const failed = turn.providers.filter((provider) => provider.outcome === 'failed' || provider.outcome === 'timed-out');
  const lines = [context ?? `Turn ${turn.turn} added no context: nothing its providers read had moved.`, '', `(${where}.)`];
  for (const provider of failed) lines.push(`(provider ${provider.name} ${provider.outcome}: ${provider.reason ?? 'no reason given'})`);
  return {
    text: lines.join('\n'),
    structured: {
      taskId: facts.taskId,
      status: 'ready',
      turn: turn.turn,
      repository: turn.repository,
      commit: turn.commit,
      digest: turn.digest,
      chars: turn.chars,
      providers: turn.providers.map(({ name, outcome, reason, tokens }) => ({ name, outcome, tokens, ...(reason === undefined ? {} : { reason }) })),
      sources: turn.entries.map((entry) => ({ provider: entry.provider, title: entry.title, ...(entry.source.path === undefined ? {} : { path: entry.source.path }), ...(entry.source.revision === undefined ? {} : { revision: entry.source.revision }) })),
      viewUrl: facts.viewUrl ?? null,
    },
  };
}

/** A task that was not ready within the tool's wait: the id to poll with get_turn, and why. */
export function notReadyAnswer(taskId: string, status: string, reason: string | null, waitedMs: number | undefined): ToolAnswer {
  const waited = waitedMs === undefined ? '' : ` after waiting ${Math.round(waitedMs / 1000)} s`;
  const because = reason ? ` (${reason})` : '';
  const failed = status === 'failed';
  const text = failed
    ? `Groundwork task ${taskId} failed${because}; it is not assembled again: call assemble_context to start a new task.`
    : `Groundwork task ${taskId} is ${status}${because}${waited}; call get_turn with {"taskId": "${taskId}", "turn": 0} to read its context once it is ready.`;
  return { text, isError: failed, structured: { taskId, status, reason } };
}

export function freshnessAnswer(taskId: string, report: FreshnessReport): ToolAnswer {
  const head =
    report.current === null
      ? `Could not check ${report.ref}: ${report.reason ?? 'no reason given'}. Treat the rules and skills of task ${taskId} (read at ${short(report.commit)}) as possibly out of date.`
      : report.moved
        ? `${report.ref} moved ${short(report.commit)} -> ${short(report.current)} since task ${taskId} was pinned.`
        : `${report.ref} is still at ${short(report.commit)}, where task ${taskId} was pinned.`;
  const rules = report.ruleSet?.status === 'changed' ? ' Follow the rules that apply now: read the ones added at the new head; do not follow those that no longer apply.' : '';
  const unknown = report.ruleSet?.status === 'unverifiable' ? ' Whether other rules apply now could not be compared.' : '';
  const verdict =
    report.current === null
      ? []
      : somethingChanged(report)
        ? [`Re-read the changed sources before a consequential action; deleted ones no longer apply.${rules}${unknown}`]
        : [`Every source the task was given is unchanged${report.ruleSet ? (unknown ? '.' : ', and the same rules apply') : ''}.${unknown}`];
  const lines = reportLines(report, 20);
  return { text: [head, ...lines, ...verdict].join('\n'), structured: { taskId, ...report } };
}

export function knowledgeAnswer(verb: 'recorded' | 'retired', knowledge: Knowledge): ToolAnswer {
  const cited = [knowledge.source.uri, knowledge.source.path, knowledge.source.revision ? short(knowledge.source.revision) : undefined].filter(Boolean).join(' ');
  return {
    text: `${verb === 'recorded' ? 'Recorded' : 'Retired'} ${knowledge.kind} ${knowledge.id} (version ${knowledge.version}) for ${knowledge.repository}: ${JSON.stringify(knowledge.statement)}; source ${cited}; review by ${knowledge.reviewBy}.`,
    structured: { knowledge },
  };
}

export function recallAnswer(repo: string, items: readonly Knowledge[], nextCursor: string | null): ToolAnswer {
  const lines = items.map((item) => `- ${item.id} [${item.status}, ${item.kind}, review by ${item.reviewBy}] ${JSON.stringify(item.statement)}${item.paths ? ` (paths ${item.paths.join(', ')})` : ''}`);
  const head = items.length === 0 ? `No knowledge recorded for ${repo} matches.` : `${items.length} piece${items.length === 1 ? '' : 's'} of knowledge for ${repo}:`;
  const more = nextCursor ? [`More: call recall again with "cursor": "${nextCursor}".`] : [];
  return { text: [head, ...lines, ...more].join('\n'), structured: { items, nextCursor } };
}

export function followupAnswer(taskId: string, item: MailboxItem, duplicate: boolean): ToolAnswer {
  return {
    text: duplicate ? `Task ${taskId} already has this follow-up (${item.id}); nothing new was posted.` : `Posted follow-up ${item.id} to task ${taskId}; the task's next turn delivers it.`,
    structured: { taskId, item, duplicate },
  };
}

/** A check's verdict in one line, then every reason; the record itself as JSON. */
export function checkAnswer(taskId: string, check: CheckRecord): ToolAnswer {
  const lines = [checkLine(check), ...check.reasons.slice(1).map((reason) => `- ${reason}`), '', `(Groundwork task ${taskId}, check ${check.id}.)`];
  return { text: lines.join('\n'), structured: { taskId, ...check } };
}
