/**
 * @module providers/rules/find-formats
 * Runs every instruction format's finder at the snapshot's commit, in parallel, and joins what
 * they found in one fixed order (Copilot, Cursor, Claude's memory and rules, then Copilot's scoped files; nested
 * Cursor directories general before specific), so the result never depends on which read
 * finished first. The scoped formats together read at most `maxRuleFiles` files.
 */
import type { Snapshot } from '../../sources/snapshot.ts';
import { EMPTY_FINDING, type AgentKind, type FormatContext, type FormatFinding } from './formats/context.ts';
import { findClaudeMemory } from './formats/claude-memory.ts';
import { findClaudeRules } from './formats/claude-rules.ts';
import { findCopilotInstructions } from './formats/copilot.ts';
import { findCursorRules, findLegacyCursorRules } from './formats/cursor.ts';
import { findGithubInstructions } from './formats/github-instructions.ts';
import type { FormatSwitch } from './format-config.ts';

export interface FormatSearch {
  snapshot: Snapshot;
  signal: AbortSignal;
  config: Record<FormatSwitch, boolean> & { maxFileBytes: number; maxRuleFiles: number; maxRuleDepth: number };
  /** Directories whose `.cursor/rules` are read, in tree order (`''` first). */
  cursorRoots: readonly string[];
  agentKind: AgentKind;
}

export async function findFormatRules(search: FormatSearch): Promise<FormatFinding> {
  const { config } = search;
  const context = (setting: FormatSwitch): FormatContext => ({
    snapshot: search.snapshot,
    signal: search.signal,
    maxFileBytes: config.maxFileBytes,
    maxDepth: config.maxRuleDepth,
    maxFiles: config.maxRuleFiles,
    disabledBy: config[setting] ? undefined : setting,
  });
  const scoped = config.maxRuleFiles === 0 ? () => Promise.resolve(EMPTY_FINDING) : undefined;
  const findings = await Promise.all([
    findCopilotInstructions(context('copilotInstructions')),
    findLegacyCursorRules(context('legacyCursorRules')),
    ...search.cursorRoots.map((root) => scoped?.() ?? findCursorRules(context('cursorRules'), root)),
    findClaudeMemory(context('claudeMemory')),
    scoped?.() ?? findClaudeRules(context('claudeRules')),
    scoped?.() ?? findGithubInstructions(context('githubInstructions'), search.agentKind),
  ]);
  const joined: FormatFinding = { rules: [], skipped: [], notes: [] };
  let scopedLeft = config.maxRuleFiles;
  for (const finding of findings) {
    for (const rule of finding.rules) {
      const isScoped = rule.format !== 'copilot-instructions' && rule.format !== 'cursorrules' && rule.format !== 'claude-memory';
      if (isScoped && scopedLeft <= 0) {
        joined.skipped.push({ format: rule.format, path: rule.path, blob: rule.read.blob, reason: `left out: more than ${config.maxRuleFiles} rule files in one run (maxRuleFiles)` });
        continue;
      }
      if (isScoped) scopedLeft--;
      joined.rules.push(rule);
    }
    joined.skipped.push(...finding.skipped);
    joined.notes.push(...finding.notes);
    if (finding.agentKind) joined.agentKind = finding.agentKind;
  }
  return joined;
}
