/**
 * @module mcp/rules-answer
 * `rules_for_paths` as the model reads it: one line per rule file (path, blob, Groundwork's
 * verdict, each client's cell), then what a client will not see and why, then the lints; the
 * matrix itself (context/rules-matrix) as structured content. Pure and shared by the remote and the
 * local server. The headline is the check run's (notify/rules-report), so both say the same first.
 */
import { CLIENT_TITLES } from '../context/client.ts';
import type { RulesMatrix } from '../context/rules-matrix.ts';
import { rulesHeadline } from '../notify/rules-report.ts';
import type { ToolAnswer } from './backend.ts';

export function rulesAnswer(taskId: string, matrix: RulesMatrix): ToolAnswer {
  const lines = [`${rulesHeadline(matrix, (path) => path)}.`, '', `Rule files at ${matrix.commit}, clients starting at ${matrix.cwd === '' ? 'the root' : matrix.cwd}, for ${matrix.paths.join(', ')}:`];
  for (const file of matrix.files) {
    const cells = matrix.clients.map((client) => `${client} ${file.clients?.find((cell) => cell.client === client)?.cell ?? '-'}`);
    lines.push(`- ${file.path}${file.blob ? ` (blob ${file.blob.slice(0, 12)})` : ''}: groundwork ${file.verdict}; ${cells.join(', ')}`);
  }
  if (matrix.files.length === 0) lines.push('- none found on the way to these paths');
  if (matrix.filesLeftOut > 0) lines.push(`- … and ${matrix.filesLeftOut} more files`);
  const why = matrix.files.flatMap((file) =>
    (file.clients ?? []).filter((cell) => cell.client !== 'none' && matrix.clients.includes(cell.client) && cell.cell !== 'loaded' && cell.detail !== '').map((cell) => `- ${CLIENT_TITLES[cell.client]}, ${file.path}: ${cell.cell}, ${cell.detail}`),
  );
  if (why.length > 0) lines.push('', 'Why:', ...why);
  lines.push('', matrix.lints.length === 0 ? 'Lints: none.' : 'Lints:');
  for (const lint of matrix.lints) lines.push(`- ${lint.severity} ${lint.path}${lint.line === undefined ? '' : `:${lint.line}`} ${lint.code}: ${lint.message}`);
  if (matrix.lintsLeftOut > 0) lines.push(`- … and ${matrix.lintsLeftOut} more lints`);
  for (const note of matrix.notes) lines.push(`(note: ${note})`);
  return { text: lines.join('\n'), structured: { taskId, ...matrix } };
}
