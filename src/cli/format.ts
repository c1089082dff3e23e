/**
 * @module cli/format
 * The human view of an assembled turn: the request blocks as the model receives them, then one
 * row per provider outcome.
 */
import type { AssembledTurn } from '../context/turn-schema.ts';

export function formatTurn(turn: AssembledTurn): string {
  const blocks = turn.messages.map((message, i) => `── ${message.role} [${i}] ${'─'.repeat(60)}\n${message.content}`);
  const header = `commit ${turn.commit ?? '(none)'}  agent ${turn.agent}  digest ${turn.digest}  chars ${turn.chars}`;
  const files = formatVerdicts(turn);
  return [...blocks, `── providers ${'─'.repeat(60)}`, formatOutcomes(turn), ...(files ? ['', `── rule files ${'─'.repeat(60)}`, files] : []), '', header, formatSettings(turn)].join('\n');
}

/** One line per rule file found: verdict, path, why. Empty when no provider said. */
export function formatVerdicts(turn: AssembledTurn): string {
  const verdicts = turn.providers.flatMap((provider) => provider.verdicts ?? []);
  const width = Math.max(0, ...verdicts.map((verdict) => verdict.path.length));
  return verdicts.map((verdict) => `${verdict.verdict.padEnd(16)}  ${verdict.path.padEnd(width)}  ${verdict.reason}`).join('\n');
}

/** Which settings layers took part: `settings  repository applied (.groundwork.yml@…)  task applied`. */
export function formatSettings(turn: AssembledTurn): string {
  const layers = (turn.settings?.layers ?? []).filter((layer) => layer.status !== 'none');
  if (layers.length === 0) return 'settings  provider defaults';
  return `settings  ${layers.map((layer) => `${layer.layer} ${layer.status}${layer.source ? ` (${layer.source})` : ''}`).join('  ')}`;
}

export function formatOutcomes(turn: AssembledTurn): string {
  const rows = [
    ['provider', 'category', 'outcome', 'tokens', 'chars', 'ms', 'reason'],
    ...turn.providers.map((p) => [p.name, p.category, p.outcome, String(p.tokens), String(p.chars), String(Math.round(p.durationMs)), p.reason ?? '']),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

/** Every settings and entry warning, one line each, for stderr. */
export function warningLines(turn: AssembledTurn): string[] {
  return [
    ...(turn.settings?.warnings ?? []).map((warning) => `warning: settings: ${warning}`),
    ...turn.entries.flatMap((entry) => entry.warnings.map((warning) => `warning: ${entry.provider}: ${warning}`)),
  ];
}
