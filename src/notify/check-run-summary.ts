/**
 * @module notify/check-run-summary
 * The Markdown a `groundwork/context` check run shows: what each provider did and why, which
 * sources were included (as `path@sha` links), the digest, and warnings. Pure, so it is tested
 * with exact strings. Titles, paths and reasons come from repositories and providers, so they
 * are escaped: repository text must not be able to add links, images or HTML to the check.
 */
import type { AssembledTurn } from '../context/turn-schema.ts';
import type { GitHubUsage } from '../sources/github/usage.ts';

export interface CheckRunOutput {
  title: string;
  summary: string;
}

/** GitHub rejects a summary over 65,535 characters. */
export const MAX_SUMMARY_CHARS = 65_535;
/** Room for each list, so that a huge source list cannot push the warnings out of the summary. */
const SOURCES_BUDGET = 40_000;
const WARNINGS_BUDGET = 15_000;

/** Inline Markdown with every character that could start markup escaped, on one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]()<>#!|~&]/g, '\\$&');
}

function link(label: string, uri: string): string {
  if (!/^https?:\/\//.test(uri)) return escapeMarkdown(label);
  return `[${escapeMarkdown(label)}](${uri.replace(/[\s()<>]/g, encodeURIComponent)})`;
}

function sourceLabel(source: AssembledTurn['entries'][number]['source']): string {
  const where = source.path ?? source.uri;
  return source.revision ? `${where}@${source.revision.slice(0, 12)}` : where;
}

function bounded(lines: string[], noun: string, budget: number): string[] {
  let used = 0;
  const kept = lines.findIndex((line) => (used += line.length + 1) > budget);
  if (kept < 0) return lines;
  return [...lines.slice(0, kept), `- … and ${lines.length - kept} more ${noun}`];
}

function fit(summary: string): string {
  if (summary.length <= MAX_SUMMARY_CHARS) return summary;
  const marker = '\n\n… (summary cut to fit the check run)';
  let end = MAX_SUMMARY_CHARS - marker.length;
  // Never between the two halves of a character outside the BMP (an emoji in a reason): a lone
  // surrogate is not text GitHub can store.
  const last = summary.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return summary.slice(0, end) + marker;
}

/**
 * @example
 * turnSummary(turn, 'ab12…').title // 'Context ready: 2 of 3 providers included'
 */
export function turnSummary(turn: AssembledTurn, taskId: string, github?: GitHubUsage): CheckRunOutput {
  const included = turn.providers.filter((provider) => provider.outcome === 'included').length;
  const lines = [
    `**Digest** \`${turn.digest}\``,
    '',
    `Agent \`${escapeMarkdown(turn.agent)}\` · turn ${turn.turn} · commit ${turn.commit ? `\`${turn.commit}\`` : 'none'} · ${turn.chars} characters · task \`${taskId}\``,
    '',
    ...settingsLine(turn),
    ...(github ? [githubLine(github), ''] : []),
    '### Providers',
    '',
    '| Provider | Category | Outcome | Reason | Tokens | Time |',
    '| --- | --- | --- | --- | ---: | ---: |',
    ...turn.providers.map(
      (p) => `| ${escapeMarkdown(p.name)} | ${p.category} | ${p.outcome} | ${p.reason ? escapeMarkdown(p.reason) : ''} | ${p.tokens} | ${Math.round(p.durationMs)} ms |`,
    ),
    '',
    '### Included sources',
    '',
  ];
  const sources = turn.entries.map((entry) => {
    const notes = [entry.provider, entry.freshness, ...(entry.truncated ? ['truncated'] : [])].map(escapeMarkdown).join(', ');
    return `- ${link(sourceLabel(entry.source), entry.source.uri)}: ${escapeMarkdown(entry.title)} (${notes})`;
  });
  lines.push(...(sources.length > 0 ? bounded(sources, 'sources', SOURCES_BUDGET) : ['None.']));
  const warnings = [
    ...(turn.settings?.warnings ?? []).map((warning) => `- settings: ${escapeMarkdown(warning)}`),
    ...turn.entries.flatMap((entry) =>
      entry.warnings.map((warning) => `- ${escapeMarkdown(entry.provider)} · ${escapeMarkdown(sourceLabel(entry.source))}: ${escapeMarkdown(warning)}`),
    ),
  ];
  if (warnings.length > 0) lines.push('', '### Warnings', '', ...bounded(warnings, 'warnings', WARNINGS_BUDGET));
  return { title: `Context ready: ${included} of ${turn.providers.length} providers included`, summary: fit(lines.join('\n')) };
}

/** Which settings layers took part, when any did: `Settings: repository applied (.groundwork.yml@…)`. */
function settingsLine(turn: AssembledTurn): string[] {
  const layers = (turn.settings?.layers ?? []).filter((layer) => layer.status !== 'none');
  if (layers.length === 0) return [];
  return [`Settings: ${layers.map((layer) => `${layer.layer} ${layer.status}${layer.source ? ` (${escapeMarkdown(layer.source)})` : ''}`).join(' · ')}`, ''];
}

/** What reading the repository cost against GitHub's rate limits. */
export function githubLine({ requests, graphqlPoints, remaining }: GitHubUsage): string {
  const total = requests.rest + requests.graphql;
  const left = (['core', 'graphql'] as const).flatMap((bucket) => {
    const known = remaining[bucket];
    return known ? [`${bucket} ${known.remaining}${known.resetAt ? ` (resets ${known.resetAt})` : ''}`] : [];
  });
  const token = requests.token > 0 ? `, plus ${requests.token} installation token request${requests.token === 1 ? '' : 's'}` : '';
  return `GitHub API: ${total} request${total === 1 ? '' : 's'} (${requests.rest} REST, ${requests.graphql} GraphQL, ${graphqlPoints} GraphQL point${graphqlPoints === 1 ? '' : 's'})${token}${left.length > 0 ? ` · remaining ${left.join(', ')}` : ''}`;
}

export function failureSummary(reason: string, taskId: string): CheckRunOutput {
  return {
    title: 'Context assembly failed',
    summary: fit(`Context for this commit could not be assembled.\n\n**Reason** ${escapeMarkdown(reason)}\n\nTask \`${taskId}\``),
  };
}
