/**
 * @module providers/rules/config
 * The rules provider's settings: which file names are instruction files, which other formats are
 * read (format-config), which coding agents the repository's rules reports are for, and the bounds
 * of one turn's reads. Every numeric field is a limit the host caps (see context/settings).
 */
import * as z from 'zod';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { FOCUS_LIMITS } from '../../context/focus.ts';
import { FORMAT_DEFAULTS, formatConfigShape, FORMAT_LIMITS } from './format-config.ts';
import { reportClientsSchema } from '../../context/report-clients.ts';

/** In each directory the first present is its instruction file (Codex reads an override before AGENTS.md). */
export const DEFAULT_RULE_FILES = ['AGENTS.override.md', 'AGENTS.md', 'AGENTS.MD', 'CLAUDE.md', 'CLAUDE.MD', 'GEMINI.md'];

/**
 * What a run gets when no settings layer sets a field (see context/provider `defaults`), in the
 * schema's order; the schema's defaults are these. `clients` has none: absent is every agent.
 */
export const RULES_DEFAULTS = deepFreeze({
  filenames: [...DEFAULT_RULE_FILES],
  maxFileBytes: 1024 * 1024,
  maxDirectories: FOCUS_LIMITS.directories,
  ...FORMAT_DEFAULTS,
});

export const RulesConfigSchema = lazySchema(() => z.object({
  /** In each directory the first of these names present is the instruction file. */
  filenames: z
    .array(
      z
        .string()
        .min(1)
        .max(255)
        .regex(/^[^/\\\0]+$/, 'a file name, not a path')
        .refine((name) => name !== '.' && name !== '..', 'a file name, not a path'),
    )
    .min(1)
    .max(16)
    .default(RULES_DEFAULTS.filenames),
  /** Bytes read from one file; larger files are read up to this and say so. */
  maxFileBytes: z.number().int().positive().default(RULES_DEFAULTS.maxFileBytes),
  /** Directories of the working directory's and focus paths' chains read on one turn. */
  maxDirectories: z.number().int().min(1).max(1_024).default(RULES_DEFAULTS.maxDirectories),
  /**
   * The coding agents this repository is worked on with: a rules report's columns (the pull
   * request's check run, MCP `rules_for_paths`, `groundwork rules`) and the agents its lints
   * count, unless the caller names its own. Absent: every agent (the check run: the deployment's
   * `CHECK_RUN_CLIENTS`). It changes no turn's context: each task has its own client.
   */
  clients: reportClientsSchema(true).optional(),
  ...formatConfigShape(),
}));
export type RulesConfig = z.output<typeof RulesConfigSchema>;

/** The settings the host caps (repository and task settings may only lower them). */
export const RULES_LIMITS = ['maxFileBytes', 'maxDirectories', ...FORMAT_LIMITS] as const;
