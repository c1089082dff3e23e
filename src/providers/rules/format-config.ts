/**
 * @module providers/rules/format-config
 * The rules provider's settings for instruction formats beyond the per-directory files: each
 * format on by default and switchable in every settings layer, and the bounds of the work they
 * cause (capped by the host: repository and task settings may only lower them).
 */
import * as z from 'zod';
import { deepFreeze } from '../../lib/deep-freeze.ts';

/** What a run gets for these fields when no settings layer sets them (part of the rules provider's `defaults`). */
export const FORMAT_DEFAULTS = deepFreeze({
  copilotInstructions: true,
  githubInstructions: true,
  cursorRules: true,
  legacyCursorRules: true,
  claudeMemory: true,
  claudeRules: true,
  imports: true,
  reviewAgents: ['reviewer'],
  maxRuleFiles: 200,
  maxRuleDepth: 4,
  maxImportDepth: 5,
  maxImports: 32,
  maxGlobCheckDirectories: 2_000,
});

const on = () => z.boolean().default(true);

/** A function, so the schemas are built with the rules settings' schema and not at start-up. */
export const formatConfigShape = () => ({
  /** `.github/copilot-instructions.md` */
  copilotInstructions: on(),
  /** `.github/instructions/**\/*.instructions.md` */
  githubInstructions: on(),
  /** `.cursor/rules/` at the root and along the focus chains */
  cursorRules: on(),
  /** The root `.cursorrules` */
  legacyCursorRules: on(),
  /** `.claude/CLAUDE.md` (Claude Code's project memory beside the root `CLAUDE.md`) */
  claudeMemory: on(),
  /** `.claude/rules/**\/*.md` */
  claudeRules: on(),
  /** `@path` imports in CLAUDE.md (and `.claude/CLAUDE.md`), GEMINI.md, Claude rules and Cursor rules. */
  imports: on(),
  /** Agents that Copilot's `excludeAgent: code-review` means; every other agent is its `coding-agent`. */
  reviewAgents: z.array(z.string().min(1).max(64)).max(32).default(FORMAT_DEFAULTS.reviewAgents),
  /** Rule files (scoped formats together) read in one run. */
  maxRuleFiles: z.number().int().min(0).max(1_000).default(FORMAT_DEFAULTS.maxRuleFiles),
  /** Directory levels below a rules directory that are searched. */
  maxRuleDepth: z.number().int().min(0).max(8).default(FORMAT_DEFAULTS.maxRuleDepth),
  /** Levels of imports followed (Claude Code and Gemini CLI follow 5). */
  maxImportDepth: z.number().int().min(0).max(5).default(FORMAT_DEFAULTS.maxImportDepth),
  /** Files imported in one run, over every importer. */
  maxImports: z.number().int().min(0).max(200).default(FORMAT_DEFAULTS.maxImports),
  /** Directories listed to check that a glob no focus path matched still matches some file; 0 skips the check. */
  maxGlobCheckDirectories: z.number().int().min(0).max(20_000).default(FORMAT_DEFAULTS.maxGlobCheckDirectories),
});

export const FORMAT_LIMITS = ['maxRuleFiles', 'maxRuleDepth', 'maxImportDepth', 'maxImports', 'maxGlobCheckDirectories'] as const;

export type FormatSwitch = 'copilotInstructions' | 'githubInstructions' | 'cursorRules' | 'legacyCursorRules' | 'claudeMemory' | 'claudeRules';
