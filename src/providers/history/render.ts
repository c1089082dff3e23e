/**
 * @module providers/history/render
 * One earlier task as a history entry: what it was asked (the tenant's words, evidence only),
 * where it came from and with which agent, its status and when it finished, the commit it read
 * (with a one-line note when that is not this task's commit), the pull request it was about,
 * the knowledge it recorded, and its inspector page. Names and one-line texts go through
 * `displayName`/`quotedText`, the request last and whole, so nothing it holds can pass for one
 * of these lines; the renderer escapes the section like any other.
 */
import type { EntryInput } from '../../context/entry.ts';
import type { Knowledge } from '../../context/knowledge.ts';
import type { EarlierTask } from '../../context/task-history.ts';
import { displayName, quotedText } from '../display-name.ts';

/** Knowledge objects named per task; the rest are counted. */
export const MAX_KNOWLEDGE_PER_TASK = 5;

/** What the provider could learn of the knowledge tasks recorded. */
export type RecordedKnowledge = { status: 'read'; byTask: ReadonlyMap<string, readonly Knowledge[]> } | { status: 'unavailable'; reason: string };

/** The source every knowledge object a task recorded names (see `POST /tasks/:id/knowledge`). */
export function taskSourceUri(taskId: string): string {
  return `groundwork:task/${taskId}`;
}

export function earlierTaskEntry(earlier: EarlierTask, context: { commit?: string | undefined; pullRequest?: number | undefined; knowledge: RecordedKnowledge }): EntryInput {
  const lines = [
    `Task ${earlier.id}, from ${displayName(earlier.origin)} with agent ${displayName(earlier.agent)}, created ${earlier.createdAt}`,
    statusLine(earlier),
    commitLine(earlier.commit, context.commit),
    ...(earlier.pullRequest === null ? [] : [`Pull request: #${earlier.pullRequest}${earlier.pullRequest === context.pullRequest ? ' (the one this task is about)' : ''}`]),
    ...knowledgeLines(earlier.id, context.knowledge),
    `Inspector: ${inspectorLine(earlier)}`,
    `Request (the earlier task's words, evidence only${earlier.requestCut ? '; its start' : ''}):`,
    earlier.request,
  ];
  return {
    title: `Earlier task ${earlier.id.slice(0, 12)}`,
    body: lines.join('\n'),
    source: { uri: taskSourceUri(earlier.id), ...(earlier.commit === null ? {} : { revision: earlier.commit }) },
    freshness: 'snapshot',
    stability: 'task',
  };
}

/** A page link as the host builds it (an origin, the task's id, a signature): shown as it is, so it can be followed. */
const PAGE_LINK = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?\/tasks\/[0-9a-f]{64}\/view(?:\?exp=\d{1,12}&sig=[0-9a-f]{64})?$/;

function inspectorLine(earlier: EarlierTask): string {
  if (earlier.viewUrl === null) return 'no link (this host knows no public origin)';
  // Anything else is shown as a name: escaped, quoted, on its one line.
  const url = PAGE_LINK.test(earlier.viewUrl) ? earlier.viewUrl : displayName(earlier.viewUrl, 2_048);
  return earlier.viewUrlSigned ? url : `${url} (opens with an API token: this deployment signs no view links)`;
}

function statusLine(earlier: EarlierTask): string {
  if (earlier.status === 'ready') return `Status: ready (context assembled), finished ${earlier.finishedAt ?? 'at an unrecorded time'}`;
  if (earlier.status === 'failed') return `Status: failed${earlier.finishedAt === null ? '' : ` ${earlier.finishedAt}`}: ${quotedText(earlier.reason ?? 'no reason recorded', 300)}`;
  return `Status: ${earlier.status}, not finished when this task was assembled`;
}

/** The one-line note the model needs when the earlier task read another commit than this one. */
export function commitLine(theirs: string | null, ours: string | undefined): string {
  if (theirs === null) return 'Commit: none (that task never pinned one)';
  if (ours === undefined || theirs === ours) return `Commit: ${theirs}${ours === undefined ? '' : ' (the one this task reads)'}`;
  return `Commit: ${theirs}; that task read ${theirs.slice(0, 7)}; this one reads ${ours.slice(0, 7)}`;
}

function knowledgeLines(taskId: string, knowledge: RecordedKnowledge): string[] {
  if (knowledge.status === 'unavailable') return [`Knowledge it recorded: not shown (${knowledge.reason})`];
  const recorded = knowledge.byTask.get(taskSourceUri(taskId)) ?? [];
  if (recorded.length === 0) return ['Knowledge it recorded: none active'];
  const named = recorded.slice(0, MAX_KNOWLEDGE_PER_TASK).map((item) => `- ${item.id} (${item.kind}): ${quotedText(item.statement.split('\n')[0] ?? '', 200)}`);
  const more = recorded.length - named.length;
  return ['Knowledge it recorded:', ...named, ...(more > 0 ? [`- and ${more} more`] : [])];
}
