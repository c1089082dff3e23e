/**
 * @module providers/rules/format-rules
 * The instruction formats beyond the per-directory files, from finding to verdicts: find every
 * format's files, decide each against the task's focus, check the globs nothing matched, and
 * hand back the pieces to render (applied rules, then the index of agent-requested ones) with a
 * verdict for every file found.
 */
import type { Stability } from '../../context/entry.ts';
import type { ScopeKind } from '../../context/client-load.ts';
import type { TaskView } from '../../context/provider.ts';
import { pathTitle } from '../../context/title.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { directoryChain, focusDirectories } from './chain.ts';
import { decide, type Focus } from './decide.ts';
import { findFormatRules } from './find-formats.ts';
import type { FormatSwitch } from './format-config.ts';
import type { AgentKind } from './formats/context.ts';
import type { FoundRule } from './formats/rule-file.ts';
import { globsMatchingNothing } from './glob-check.ts';
import { quote, type RuleGlob } from './globs.ts';
import type { RulePiece } from './pieces.ts';
import { FOCUS_RULES_INDEX_TITLE, renderRulesIndex, RULES_INDEX_TITLE } from './rules-index.ts';

/** The formats whose `@path` imports are followed, as the tools that read them follow them. */
const IMPORTING_FORMATS: ReadonlySet<string> = new Set(['claude-memory', 'claude-rule', 'cursor-rule']);

export interface FormatRulesConfig extends Record<FormatSwitch, boolean> {
  maxFileBytes: number;
  maxRuleFiles: number;
  maxRuleDepth: number;
  maxGlobCheckDirectories: number;
  maxDirectories: number;
  reviewAgents: readonly string[];
}

/** What the formats read of a task: where it works and which agent it is. */
export type FocusTask = Pick<TaskView, 'cwd' | 'focusPaths' | 'agent'>;

export interface FormatRules {
  /** Commit-stable pieces first, then task-stable ones, each group in the finders' order. */
  pieces: RulePiece[];
  verdicts: RuleVerdictInput[];
  notes: string[];
  /** The agent kind they depend on, when they do (formats/context). */
  agentKind?: AgentKind;
}

/** The focus of a task: its working directory's chain is commit-stable, the rest is the task's. */
export function taskFocus(task: FocusTask): Focus {
  return { cwd: task.cwd, cwdChain: new Set(directoryChain(task.cwd)), focusPaths: task.focusPaths };
}

/** What the client profiles are told about a format's file (context/client-load). */
function foundFacts(rule: FoundRule, focus: Focus): NonNullable<RuleVerdictInput['found']> {
  const { activation } = rule;
  const scope: ScopeKind = activation.kind === 'globs' && activation.globs.some((glob) => glob.all) ? 'always' : activation.kind;
  return {
    dir: rule.root,
    bytes: rule.read.size,
    blank: rule.body.trim() === '',
    scope,
    ...(activation.kind === 'globs' ? { field: activation.field } : {}),
    shared: focus.cwdChain.has(rule.root),
  };
}

/**
 * Directories along the working directory's chain and every focus path's, in tree order and
 * bounded like the directory files' chains (chain.ts): where nested `.cursor/rules` are looked for.
 * A focus path not known to be a file may be a directory, so its own `.cursor/rules` is looked for too.
 */
export function ruleDirectories(task: FocusTask, focusFiles: readonly string[], maxDirectories: number): string[] {
  return focusDirectories(task.cwd, task.focusPaths, { files: focusFiles, max: maxDirectories }).dirs;
}

/** Copilot's agent kind of `agent`: the settings' `reviewAgents` are its code review. */
export function agentKindOf(config: Pick<FormatRulesConfig, 'reviewAgents'>, agent: string): AgentKind {
  return config.reviewAgents.includes(agent) ? 'code-review' : 'coding-agent';
}

export async function gatherFormatRules(input: { snapshot: Snapshot; task: FocusTask; focusFiles?: readonly string[]; config: FormatRulesConfig; signal: AbortSignal }): Promise<FormatRules> {
  const { snapshot, task, config, signal } = input;
  const found = await findFormatRules({
    snapshot,
    signal,
    config,
    cursorRoots: ruleDirectories(task, input.focusFiles ?? [], config.maxDirectories),
    agentKind: agentKindOf(config, task.agent),
  });
  const focus = taskFocus(task);
  const notes = [...found.notes];
  const verdicts: RuleVerdictInput[] = [];
  const applied: Record<Stability, Array<{ rule: FoundRule; reason: string }>> = { commit: [], task: [] };
  const indexed: Record<Stability, FoundRule[]> = { commit: [], task: [] };
  const unmatched: Array<{ verdict: RuleVerdictInput; globs: RuleGlob[] }> = [];

  for (const rule of found.rules) {
    const decision = decide(rule, focus);
    const verdict: RuleVerdictInput = { path: rule.path, blob: rule.read.blob, format: rule.format, verdict: decision.verdict, reason: decision.reason, found: foundFacts(rule, focus) };
    if (decision.verdict === 'applied') {
      applied[decision.stability].push({ rule, reason: decision.reason });
      verdict.entry = pathTitle(rule.path);
    } else if (decision.verdict === 'indexed') {
      indexed[decision.stability].push(rule);
      verdict.entry = decision.stability === 'commit' ? RULES_INDEX_TITLE : FOCUS_RULES_INDEX_TITLE;
    } else {
      if (decision.unmatched) unmatched.push({ verdict, globs: decision.unmatched });
      notes.push(...rule.warnings);
    }
    verdicts.push(verdict);
  }
  for (const skipped of found.skipped) verdicts.push({ path: skipped.path, ...(skipped.blob ? { blob: skipped.blob } : {}), format: skipped.format, verdict: 'not-applied', reason: skipped.reason });

  if (config.maxGlobCheckDirectories > 0 && unmatched.length > 0) {
    const nothing = await globsMatchingNothing(snapshot, unmatched.flatMap((item) => item.globs), config.maxGlobCheckDirectories, signal);
    for (const item of unmatched) {
      const dead = item.globs.filter((glob) => nothing.has(glob));
      if (dead.length === 0) continue;
      const said = `${dead.map((glob) => quote(glob.text)).join(', ')} ${dead.length === 1 ? 'matches' : 'match'} no file at this commit`;
      item.verdict.reason = `${item.verdict.reason}; ${said}`;
      notes.push(`${item.verdict.path}: ${said}`);
    }
  }

  const pieces: RulePiece[] = [];
  for (const stability of ['commit', 'task'] as const) {
    for (const { rule } of applied[stability]) {
      pieces.push({ title: pathTitle(rule.path), read: rule.read, body: rule.body, stability, warnings: rule.warnings, imports: IMPORTING_FORMATS.has(rule.format) });
    }
    if (indexed[stability].length > 0) {
      pieces.push({ title: stability === 'commit' ? RULES_INDEX_TITLE : FOCUS_RULES_INDEX_TITLE, body: renderRulesIndex(indexed[stability]), stability, warnings: indexed[stability].flatMap((rule) => rule.warnings), imports: false, indexed: indexed[stability] });
    }
  }
  return { pieces, verdicts, notes, ...(found.agentKind ? { agentKind: found.agentKind } : {}) };
}
