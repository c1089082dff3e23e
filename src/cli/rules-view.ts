/**
 * @module cli/rules-view
 * The human view of a rules matrix, pure and at most 80 columns wide: one row per file (each named
 * once, a long path carried over to the lines below), a one-letter cell per client under a
 * two-letter head, then the lints with their file:line, clients and message, wrapped.
 */
import type { ClientName } from '../context/client.ts';
import type { ClientCellKind } from '../context/client-load.ts';
import type { RuleVerdict } from '../context/rule-verdict.ts';
import type { RulesMatrix } from '../context/rules-matrix.ts';

export const VIEW_WIDTH = 80;

const HEADS: Readonly<Record<ClientName, string>> = { none: 'gw', codex: 'cx', 'claude-code': 'cc', 'gemini-cli': 'gm', copilot: 'cp', cursor: 'cu' };
const MARKS: Readonly<Record<ClientCellKind, string>> = { given: 'G', loaded: 'L', lazy: 'z', cut: 'c', shadowed: 's', 'not-seen': '·' };

/** `text` cut into lines of at most `width` characters, at spaces where it can be. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const at = space > width / 3 ? space : width;
    lines.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^ /, '');
  }
  lines.push(rest);
  return lines;
}

export function formatRulesMatrix(matrix: RulesMatrix, ref: string): string {
  const columns: ClientName[] = ['none', ...matrix.clients];
  const cellsWidth = columns.length * 3;
  const pathWidth = VIEW_WIDTH - cellsWidth - 1;
  const out: string[] = [];
  // A path with a reference that was not followed and the file itself: the file (with cells) names it.
  const rows = new Map<string, RuleVerdict>();
  for (const file of matrix.files) if (!rows.has(file.path) || (file.clients && !rows.get(file.path)?.clients)) rows.set(file.path, file);
  const withCells = [...rows.values()].filter((file) => file.clients);
  const without = [...rows.values()].filter((file) => !file.clients);
  const at = ref === matrix.commit ? matrix.commit.slice(0, 12) : `${ref} (${matrix.commit.slice(0, 12)})`;
  const scope = matrix.paths.length === 0 ? 'the whole repository' : `${matrix.paths.length} path${matrix.paths.length === 1 ? '' : 's'}`;
  out.push(...wrap(`${withCells.length} rule file${withCells.length === 1 ? '' : 's'} at ${at} for ${scope}; agents start in ${matrix.cwd === '' ? '.' : matrix.cwd}`, VIEW_WIDTH));
  out.push(...wrap(`${columns.map((name) => `${HEADS[name]} ${name === 'none' ? 'Groundwork' : name}`).join(', ')}`, VIEW_WIDTH));
  out.push(...wrap('G given by Groundwork, L loaded by the agent at start, z lazily, c cut at its size cap, s shadowed by another file, · not seen', VIEW_WIDTH));
  out.push('');
  if (withCells.length > 0) {
    out.push(`${columns.map((name) => HEADS[name].padEnd(3)).join('')} file`);
    for (const file of withCells) {
      const marks = columns.map((name) => (MARKS[file.clients?.find((cell) => cell.client === name)?.cell ?? 'not-seen'] ?? '?').padEnd(3)).join('');
      const [first = '', ...more] = chunks(file.path, pathWidth);
      out.push(`${marks} ${first}`);
      for (const line of more) out.push(`${' '.repeat(cellsWidth)} ${line}`);
    }
  }
  if (without.length > 0) {
    out.push('', 'not read (no agent cells):');
    for (const file of without) out.push(...wrap(`${file.path}: ${file.reason}`, VIEW_WIDTH - 2).map((line) => `  ${line}`));
  }
  if (matrix.filesLeftOut > 0) out.push(`… and ${matrix.filesLeftOut} more files (use --json, or --path to narrow)`);
  const errors = matrix.lints.filter((lint) => lint.severity === 'error').length;
  const warnings = matrix.lints.length - errors;
  out.push('', matrix.lints.length === 0 ? 'lints: none' : `lints: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${matrix.lintsLeftOut > 0 ? ` (and ${matrix.lintsLeftOut} more not shown)` : ''}`);
  for (const lint of matrix.lints) {
    const where = `${lint.path}${lint.line === undefined ? '' : `:${lint.line}`}`;
    out.push(...wrap(`${lint.severity.padEnd(8)}${where}  ${lint.code}${lint.clients.length > 0 ? ` (${lint.clients.join(', ')})` : ''}`, VIEW_WIDTH).map((line, i) => (i === 0 ? line : `        ${line}`)));
    out.push(...wrap(lint.message, VIEW_WIDTH - 10).map((line) => `          ${line}`));
  }
  if (matrix.notes.length > 0) {
    out.push('', 'notes:');
    for (const note of matrix.notes) out.push(...wrap(note, VIEW_WIDTH - 2).map((line) => `  ${line}`));
  }
  return `${out.join('\n')}\n`;
}

/** A path in pieces of at most `width` characters, cut after a `/` where it can be. */
function chunks(path: string, width: number): string[] {
  const out: string[] = [];
  let rest = path;
  while (rest.length > width) {
    const slash = rest.lastIndexOf('/', width - 1);
    const at = slash > 0 ? slash + 1 : width;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  out.push(rest);
  return out;
}
