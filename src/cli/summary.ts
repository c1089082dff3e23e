/**
 * @module cli/summary
 * `groundwork context --summary`: a short view of an assembled turn for people, with no prompt
 * text: the pinned commit, every source found (applied, with path, blob and tokens; or not, and
 * why), the provider outcome table, and the composition of the request as a text bar with the
 * same segments, kinds and shared-prefix boundary as the inspector's picture.
 */
import { CLIENT_NAMES, clientOf } from '../context/client.ts';
import type { ClientCell } from '../context/client-load.ts';
import type { AssembledTurn } from '../context/turn-schema.ts';
import { TASK_ITEM_ID } from '../context/host-items.ts';
import { turnAnatomy, type SectionModel } from '../inspector/anatomy.ts';
import { providerBudgets } from '../inspector/budgets.ts';
import { contextWindow, KIND_LABELS, type Segment, type WindowModel } from '../inspector/window.ts';
import { formatOutcomes } from './format.ts';

/** Characters of the composition bar. */
export const BAR_WIDTH = 60;

/** One letter per kind in the bar; the legend says which is which. */
const LETTERS = { host: 'H', system: 'Y', rules: 'R', skills: 'S', memory: 'M', notice: 'N', task: 'T', transcript: 'X' } as const;

const NO_LINKS = { commit: () => undefined, file: () => undefined };

export function formatSummary(turn: AssembledTurn): string {
  const host = turn.items.find((item) => item.id === TASK_ITEM_ID);
  const anatomy = host && 'content' in host ? turnAnatomy(host.content, turn.entries, NO_LINKS, 0) : undefined;
  const sections = anatomy?.ok ? anatomy.sections : [];
  const window = contextWindow({ turn, system: turn.system, items: turn.items.map((item) => ({ turn: 0, item })), hostTurns: new Map([[TASK_ITEM_ID, 0]]) });
  return [
    `commit ${turn.commit ?? '(none)'}  agent ${turn.agent}${turn.client ? `  client ${turn.client}` : ''}  digest ${turn.digest}`,
    '',
    'sources',
    ...sourceLines(turn, sections, window),
    '',
    ...clientLines(turn),
    'providers',
    formatOutcomes(turn),
    '',
    ...composition(window),
  ].join('\n');
}

function sourceLines(turn: AssembledTurn, sections: readonly SectionModel[], window: WindowModel): string[] {
  const tokens = new Map(window.segments.flatMap((segment) => (segment.anchor ? [[segment.anchor, segment.tokens] as const] : [])));
  const rows = sections.flatMap((section): string[][] => {
    if (section.kind !== 'context') return [];
    const where = section.source.label.replace(/@([0-9a-f]{12})[0-9a-f]{28}$/, '@$1');
    const blob = section.source.blob ? `blob ${section.source.blob.slice(0, 12)}` : '';
    const named = section.heading ?? section.title;
    const title = named === section.source.label.replace(/@[0-9a-f]{40}$/, '') ? '' : ` (${named})`;
    return [['applied', section.provider, `${where}${title}`, blob, `${tokens.get(section.anchor) ?? 0} tokens`, section.freshness, section.truncated ? 'truncated' : '']];
  });
  // Rule files the rules provider indexed (named, not rendered in full); the ones not applied are among the cuts.
  const indexed = turn.providers.flatMap((outcome) =>
    (outcome.verdicts ?? []).filter((verdict) => verdict.verdict === 'indexed').map((verdict) => ['indexed', outcome.name, `${verdict.path} (${verdict.reason})`]),
  );
  const notGiven = providerBudgets(turn, turn.settings, sections).flatMap((row) =>
    row.cuts.map((cut) => {
      const kind = /^not (given|applied): /.exec(cut.text)?.[0].slice(0, -2) ?? 'cut';
      return [kind, row.provider, cut.text.replace(/^not (given|applied): /, '')];
    }),
  );
  return table([...rows, ...indexed, ...notGiven]).map((line) => `  ${line}`);
}

/** A cell as a word or two: `loaded`, `lazy`, `cut 12288`. */
function cellWord(cell: ClientCell): string {
  if (cell.cell === 'cut') return `cut ${/\d+/.exec(cell.detail)?.[0] ?? ''}`.trim();
  return cell.cell === 'not-seen' ? 'not seen' : cell.cell;
}

/**
 * The rule files by client: one row per file found, one column per client; then, for the task's
 * client, why each file it does not load itself is given or not.
 */
function clientLines(turn: AssembledTurn): string[] {
  const files = turn.providers.flatMap((outcome) => (outcome.verdicts ?? []).filter((verdict) => (verdict.clients?.length ?? 0) > 0));
  if (files.length === 0) return [];
  const rows = files.map((file) => [file.path, ...CLIENT_NAMES.map((name) => {
    const cell = file.clients?.find((candidate) => candidate.client === name);
    return cell ? cellWord(cell) : '-';
  })]);
  const own = turn.client === undefined ? undefined : clientOf(turn.client);
  const why = own
    ? files.flatMap((file) => {
        const cell = file.clients?.find((candidate) => candidate.client === own.name);
        return cell && cell.cell !== 'loaded' ? [[cellWord(cell), file.path, cell.detail]] : [];
      })
    : [];
  return [
    'rule files by client  (loaded: at start by the client itself; lazy: by the client later; given: by Groundwork)',
    ...table([['file', ...CLIENT_NAMES], ...rows]).map((line) => `  ${line}`),
    ...(own ? ['', `for ${turn.client}`, ...table(why).map((line) => `  ${line}`)] : []),
    '',
  ];
}

/** The bar: each kind's letters in request order, `|` where the shared prefix ends. */
function composition(window: WindowModel): string[] {
  const columns = allocate(window.segments, BAR_WIDTH);
  const prefixAt = window.total > 0 ? Math.round((window.sharedPrefix / window.total) * BAR_WIDTH) : 0;
  const letters = window.segments.flatMap((segment, i) => Array.from({ length: columns[i] ?? 0 }, () => LETTERS[segment.kind])).join('');
  const bar = `${letters.slice(0, prefixAt)}|${letters.slice(prefixAt)}`;
  const legend = window.legend.map((row) => [LETTERS[row.kind], KIND_LABELS[row.kind], `${row.tokens} tokens`, `${(row.share * 100).toFixed(1)}%`]);
  const share = window.total > 0 ? ((window.sharedPrefix / window.total) * 100).toFixed(1) : '0.0';
  return [
    `composition  ${window.total} tokens in the request (UTF-8 bytes / 4)`,
    `  [${bar}]`,
    ...table(legend).map((line) => `  ${line}`),
    `  | the prefix every task on this commit shares ends at ${window.sharedPrefix} tokens (${share}%)`,
  ];
}

/** Columns per segment by largest remainder, so they add up to `width` exactly. */
function allocate(segments: readonly Segment[], width: number): number[] {
  const total = segments.reduce((sum, segment) => sum + segment.tokens, 0);
  if (total === 0) return segments.map(() => 0);
  const exact = segments.map((segment) => (segment.tokens / total) * width);
  const columns = exact.map(Math.floor);
  let left = width - columns.reduce((sum, n) => sum + n, 0);
  const order = exact.map((value, i) => ({ i, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    columns[i] = (columns[i] ?? 0) + 1;
    left--;
  }
  return columns;
}

/** Columns padded to their widest cell; a row's last cell is not padded, so it widens nothing (a long reason keeps the other rows narrow). */
export function table(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => i < row.length - 1 && (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
}
