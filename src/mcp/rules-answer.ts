/**
 * @module mcp/rules-answer
 * `rules_for_paths` as the model reads it: the check run's rules report (notify/rules-report: the
 * headline, one row per rule file with its blob, Groundwork's verdict and each client's cell, what
 * a client will not see and why, the lints), so both surfaces say the same thing the same way; the
 * matrix itself (context/rules-matrix) as structured content. Pure, shared by both servers.
 */
import type { RulesMatrix } from '../context/rules-matrix.ts';
import { rulesReport } from '../notify/rules-report.ts';
import type { ToolAnswer } from './backend.ts';

/** Room for the text: the matrix is bounded (200 files, 200 lints), so this cuts only the extreme. */
const TEXT_BYTES = 60_000;

export function rulesAnswer(taskId: string, matrix: RulesMatrix): ToolAnswer {
  const report = rulesReport(matrix, { file: () => undefined }, TEXT_BYTES);
  return { text: `${report.headline}\n\n${report.markdown}`, structured: { taskId, ...matrix } };
}
