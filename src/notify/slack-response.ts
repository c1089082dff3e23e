/**
 * @module notify/slack-response
 * Posts the assembled result to the slash command's `response_url`, ephemeral like the
 * acknowledgement. Slack mrkdwn only needs `&`, `<` and `>` escaped; links are `<url|label>`.
 */
import type { AssembledTurn } from '../context/turn-schema.ts';

const MAX_LISTED = 20;

export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function source(entry: AssembledTurn['entries'][number]): string {
  const { path, revision, uri } = entry.source;
  const label = escapeSlack(`${path ?? uri}${revision ? `@${revision.slice(0, 12)}` : ''}`).replace(/\|/g, '¦');
  return /^https?:\/\//.test(uri) ? `<${uri}|${label}>` : label;
}

/** A link Slack shows as "Open in the inspector"; the URL is ours (origin, hex id, digits). */
function inspectorLine(viewUrl: string | undefined): string[] {
  return viewUrl && /^https?:\/\/[^\s<>|]+$/.test(viewUrl) ? [`<${viewUrl}|Open in the inspector>`] : [];
}

export function slackTurnText(turn: AssembledTurn, taskId: string, viewUrl?: string): string {
  const outcomes = turn.providers.map((p) => `${escapeSlack(p.name)}: ${p.outcome}${p.reason ? ` (${escapeSlack(p.reason)})` : ''}`);
  const sources = turn.entries.slice(0, MAX_LISTED).map(source);
  const more = turn.entries.length > MAX_LISTED ? ` and ${turn.entries.length - MAX_LISTED} more` : '';
  const warnings = turn.entries.flatMap((entry) => entry.warnings.map((warning) => `${escapeSlack(entry.provider)}: ${escapeSlack(warning)}`));
  return [
    `*Context ready* for task \`${taskId}\`, digest \`${turn.digest}\``,
    `Providers: ${outcomes.join('; ') || 'none'}`,
    `Sources: ${sources.length > 0 ? sources.join(', ') + more : 'none'}`,
    ...(warnings.length > 0 ? [`Warnings: ${warnings.slice(0, MAX_LISTED).join('; ')}`] : []),
    ...inspectorLine(viewUrl),
  ].join('\n');
}

export function slackFailureText(reason: string, taskId: string, viewUrl?: string): string {
  return [`*Context assembly failed* for task \`${taskId}\`: ${escapeSlack(reason)}`, ...inspectorLine(viewUrl)].join('\n');
}

/** Resolves to an error description, or undefined when Slack accepted the message. */
export async function postSlackResponse(fetch: typeof globalThis.fetch, responseUrl: string, text: string, signal: AbortSignal): Promise<string | undefined> {
  const response = await fetch(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text }),
    signal,
  });
  await response.body?.cancel();
  return response.ok ? undefined : `Slack answered ${response.status}`;
}
