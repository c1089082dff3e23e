/**
 * @module notify/rules-report
 * The rules report of a pull request's check run: for the changed paths, which rule files apply,
 * their blobs, Groundwork's verdict and each listed client's cell (context/rules-matrix), the files
 * a client will not see, and the lints, each file linked at the commit. Its first line says what
 * matters ("4 rule files apply to this change; Codex will not see packages/api/CLAUDE.md").
 *
 * Pure: a matrix and links in, Markdown out, tested with exact strings. Bounded by the bytes it is
 * given (the check run's summary has 65,535, notify/markdown): the table, the files not seen and the
 * lints each get a share, and what does not fit is counted and linked to the task's inspector.
 * Paths are repository text: they are shown as code spans (literal: no link, image, HTML, mention
 * or autolink), and reasons and messages are escaped.
 */
import { CLIENT_TITLES, type ClientName } from '../context/client.ts';
import type { ClientCell, ClientCellKind } from '../context/client-load.ts';
import type { RuleLint } from '../context/rule-lint.ts';
import type { RuleVerdict } from '../context/rule-verdict.ts';
import type { RulesMatrix } from '../context/rules-matrix.ts';
import { codeSpan, escapeMarkdown, markdownLink, utf8Bytes } from './markdown.ts';

export interface RulesReportLinks {
  /** A file's page at the matrix's commit (and line), when the repository has web pages. */
  file(path: string, line?: number): string | undefined;
  /** The task's inspector page, whose rule matrix holds every file; absent without signed links. */
  inspector?: string;
}

export interface RulesReport {
  /** The summary's first line. */
  headline: string;
  /** The section under it, at most the bytes it was given. */
  markdown: string;
}

/** What becomes of the report when it could not be made: said, never an empty report. */
export type RulesReportResult = { status: 'ok'; matrix: RulesMatrix } | { status: 'skipped' | 'failed'; reason: string };

const CELL_WORDS: Readonly<Record<ClientCellKind, string>> = { loaded: 'loaded', lazy: 'lazy', given: 'given', 'not-seen': '**not seen**', shadowed: 'shadowed', cut: 'cut' };
/** A client has the file in front of its model: by itself, or from Groundwork. */
const SEES: ReadonlySet<ClientCellKind> = new Set(['loaded', 'lazy', 'given', 'cut']);

/** Shares of the report's bytes: the table, the files not seen, the lints. */
const SHARES = { table: 0.5, unseen: 0.2, lints: 0.3 } as const;

function cellOf(file: RuleVerdict, client: ClientName): ClientCell | undefined {
  return file.clients?.find((cell) => cell.client === client);
}

/** A file applies when Groundwork gives it or some listed client has it in front of its model. */
export function applies(file: RuleVerdict, clients: readonly ClientName[]): boolean {
  if (file.verdict === 'applied' || file.verdict === 'indexed' || file.verdict === 'loaded-by-client') return true;
  return clients.some((client) => {
    const cell = cellOf(file, client);
    return cell !== undefined && SEES.has(cell.cell);
  });
}

interface Unseen {
  client: ClientName;
  file: RuleVerdict;
  detail: string;
}

const dirOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/**
 * Files that apply and that a listed client will not see, neither by itself nor from Groundwork.
 * No gap: a file whose text the client sees under another path (a CLAUDE.md linked to the
 * AGENTS.md it loads), and a directory's instruction file beside another of that directory that
 * the client does see, unless the lints say the two disagree (`directory-disagreement`: a
 * CLAUDE.md that only prefaces the AGENTS.md it imports, as cloudflare/workers-sdk's, does not).
 */
function unseenOf(matrix: RulesMatrix): Unseen[] {
  const sees = (file: RuleVerdict, client: ClientName) => SEES.has(cellOf(file, client)?.cell ?? 'not-seen');
  const disagreeing = new Set(matrix.lints.flatMap((lint) => (lint.code === 'directory-disagreement' ? [lint.path, ...(lint.related ?? [])] : [])));
  const covered = (file: RuleVerdict, client: ClientName) =>
    matrix.files.some((other) => other !== file && sees(other, client) && ((file.blob !== undefined && other.blob === file.blob) || (file.format === 'directory-file' && other.format === 'directory-file' && dirOf(other.path) === dirOf(file.path) && !disagreeing.has(file.path))));
  return matrix.files.flatMap((file) => {
    if (!applies(file, matrix.clients)) return [];
    return matrix.clients.flatMap((client) => {
      const cell = cellOf(file, client);
      return cell?.cell === 'not-seen' && !covered(file, client) ? [{ client, file, detail: cell.detail }] : [];
    });
  });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The report's first line, in Markdown (a path as a code span).
 *
 * @example
 * rulesHeadline(matrix) // '4 rule files apply to this change; Codex and Cursor will not see `packages/api/CLAUDE.md` (and 1 more file some client will not see); 1 lint error'
 */
export function rulesHeadline(matrix: RulesMatrix): string {
  const applying = matrix.files.filter((file) => applies(file, matrix.clients)).length;
  const unseen = unseenOf(matrix);
  const errors = matrix.lints.filter((lint) => lint.severity === 'error').length;
  const parts = [applying === 0 ? 'No rule file applies to this change' : `${plural(applying, 'rule file')} ${applying === 1 ? 'applies' : 'apply'} to this change`];
  const [first] = unseen;
  if (first) {
    const clients = unseen.filter((gap) => gap.file === first.file).map((gap) => CLIENT_TITLES[gap.client]);
    const others = new Set(unseen.filter((gap) => gap.file !== first.file).map((gap) => gap.file)).size;
    const who = clients.length === 1 ? clients[0] : `${clients.slice(0, -1).join(', ')} and ${clients.at(-1)}`;
    parts.push(`${who} will not see ${codeSpan(first.file.path)}${others > 0 ? ` (and ${plural(others, 'more file')} some client will not see)` : ''}`);
  } else if (applying > 0) {
    parts.push(`every listed client has ${applying === 1 ? 'its' : 'their'} rules, by itself or from Groundwork`);
  }
  if (errors > 0) parts.push(plural(errors, 'lint error'));
  return parts.join('; ');
}

/** Lines up to `budget` bytes, then one line counting the rest (`extra` were left out before). */
function bounded(lines: readonly string[], budget: number, extra: number, more: (n: number) => string): string[] {
  let used = 0;
  const kept = lines.findIndex((line) => (used += utf8Bytes(line) + 1) > budget);
  const left = (kept < 0 ? 0 : lines.length - kept) + extra;
  return left === 0 ? [...lines] : [...lines.slice(0, kept < 0 ? lines.length : kept), more(left)];
}

function fileLink(path: string, links: RulesReportLinks, line?: number, inTable = false): string {
  return markdownLink(codeSpan(path, inTable), links.file(path, line));
}

function inspector(links: RulesReportLinks, what: string): string {
  return links.inspector ? `: every one is in [the task's inspector](${links.inspector})` : `: the task's inspector (GET /tasks/:id/view) lists ${what}`;
}

function lintLine(lint: RuleLint, links: RulesReportLinks): string {
  const where = `${fileLink(lint.path, links, lint.line)}${lint.line === undefined ? '' : ` line ${lint.line}`}`;
  const clients = lint.clients.length > 0 ? ` (${lint.clients.map((client) => CLIENT_TITLES[client]).join(', ')})` : '';
  return `- **${lint.severity}** ${where} \`${lint.code}\`${clients}: ${escapeMarkdown(lint.message)}`;
}

/**
 * The report in at most `budget` UTF-8 bytes (the headline apart).
 *
 * @example
 * rulesReport(matrix, { file: (path) => `https://github.com/acme/widgets/blob/${matrix.commit}/${path}` }, 24_000).headline
 */
export function rulesReport(matrix: RulesMatrix, links: RulesReportLinks, budget: number): RulesReport {
  const clients = matrix.clients;
  const head = [
    '### Rules for this change',
    '',
    `${plural(matrix.paths.length, 'path')} at \`${matrix.commit}\`, clients starting at ${matrix.cwd === '' ? 'the root' : codeSpan(matrix.cwd)}. Cells: **loaded** by the client at start, **lazy** later, **given** by Groundwork, **not seen**, **shadowed**, **cut** at its size cap.`,
    '',
  ];
  const left = Math.max(0, budget - utf8Bytes(head.join('\n')) - 200);
  const table = [
    `| File | Blob | Groundwork | ${clients.map((client) => CLIENT_TITLES[client]).join(' | ')} |`,
    `| --- | --- | --- | ${clients.map(() => '---').join(' | ')} |`,
  ];
  const rows = matrix.files.map((file) => {
    const cells = clients.map((client) => {
      const cell = cellOf(file, client);
      return cell ? CELL_WORDS[cell.cell] : '-';
    });
    return `| ${fileLink(file.path, links, undefined, true)} | ${file.blob ? `\`${file.blob.slice(0, 12)}\`` : '-'} | ${file.verdict} | ${cells.join(' | ')} |`;
  });
  const lines = [...head];
  if (rows.length === 0 && matrix.filesLeftOut === 0) lines.push('No rule file was found on the way to these paths.');
  else lines.push(...table, ...bounded(rows, left * SHARES.table, matrix.filesLeftOut, (n) => `| … and ${plural(n, 'more file')}${inspector(links, 'them')} |`));
  const unseen = unseenOf(matrix).map(({ client, file, detail }) => `- ${CLIENT_TITLES[client]} will not see ${fileLink(file.path, links)}: ${escapeMarkdown(detail)}`);
  if (unseen.length > 0) lines.push('', '**Not seen**', '', ...bounded(unseen, left * SHARES.unseen, 0, (n) => `- … and ${n} more${inspector(links, 'every cell')}`));
  const lints = matrix.lints.map((lint) => lintLine(lint, links));
  lines.push('', '**Lints**', '');
  if (lints.length === 0 && matrix.lintsLeftOut === 0) lines.push('None: no client drops any of these files without a word.');
  else lines.push(...bounded(lints, left * SHARES.lints, matrix.lintsLeftOut, (n) => `- … and ${plural(n, 'more lint')}: \`groundwork rules --ref ${matrix.commit}\` lists every one`));
  if (matrix.notes.length > 0) lines.push('', ...bounded(matrix.notes.map((note) => `- note: ${escapeMarkdown(note)}`), 2_000, 0, (n) => `- … and ${plural(n, 'more note')}`));
  return { headline: rulesHeadline(matrix), markdown: lines.join('\n') };
}

/** The report, or one line saying why there is none. */
export function rulesReportOrReason(result: RulesReportResult, links: RulesReportLinks, budget: number): RulesReport {
  if (result.status === 'ok') return rulesReport(result.matrix, links, budget);
  const what = result.status === 'skipped' ? 'No rules report' : 'The rules report could not be made';
  return { headline: `${what}: ${escapeMarkdown(result.reason)}`, markdown: `### Rules for this change\n\n${what}: ${escapeMarkdown(result.reason)}` };
}
