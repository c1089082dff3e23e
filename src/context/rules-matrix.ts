/**
 * @module context/rules-matrix
 * The rules matrix of a commit: every rule file that applies to the given paths, with Groundwork's
 * verdict and one cell per client (context/rule-verdict), and the lints (context/rule-lint). The
 * shape `groundwork rules --json`, the check run's rules report and MCP `rules_for_paths` share;
 * providers/rules/rules-matrix computes it. Apart from the computation, so a route or the Task
 * object can validate or describe an answer without loading the rules code.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { CLIENT_NAMES } from './client.ts';
import { MAX_LINTS, RuleLintSchema } from './rule-lint.ts';
import { MAX_VERDICT_PATH_CHARS, MAX_VERDICTS, RuleVerdictSchema } from './rule-verdict.ts';

const MAX_PATHS = 256;
const MAX_NOTES = 50;

export const RulesMatrixSchema = lazySchema(() => z.object({
  commit: z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/),
  /** The directory the clients start in (`''` is the root). */
  cwd: z.string().max(MAX_VERDICT_PATH_CHARS),
  /** The paths asked about (a change's files), in the order given. */
  paths: z.array(z.string().max(MAX_VERDICT_PATH_CHARS)).max(MAX_PATHS),
  /** The clients whose cells the files carry and whose silent failures the lints count (never `none`, whose cell is Groundwork's own). */
  clients: z.array(z.enum(CLIENT_NAMES)).min(1).max(CLIENT_NAMES.length),
  files: z.array(RuleVerdictSchema).max(MAX_VERDICTS),
  /** Files past {@link MAX_VERDICTS}, counted. */
  filesLeftOut: z.number().int().nonnegative(),
  lints: z.array(RuleLintSchema).max(MAX_LINTS),
  lintsLeftOut: z.number().int().nonnegative(),
  /** What the rules run noted (a focus path not in the tree, a file too large to read whole). */
  notes: z.array(z.string().max(400)).max(MAX_NOTES),
}));
export type RulesMatrix = z.infer<typeof RulesMatrixSchema>;

export const RULES_MATRIX_LIMITS = { paths: MAX_PATHS, notes: MAX_NOTES } as const;
