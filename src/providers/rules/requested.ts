/**
 * @module providers/rules/requested
 * Renders one agent-requested rule (one listed in the rules index) by name or path, at the
 * task's commit, with its imports: what a host calls when the model asks for a rule on a later
 * turn. Task-stable (the task asked for it), pinned, with a verdict saying it was requested.
 *
 * @example
 * const rendered = await renderRequestedRule({ snapshot, task, config, name: 'database', budget: 2_000, signal });
 * if (rendered.status === 'ok') appendToTurn(rendered.entries);
 */
import type { EntryInput } from '../../context/entry.ts';
import type { TaskView } from '../../context/provider.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import { pathTitle } from '../../context/title.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { findFormatRules } from './find-formats.ts';
import { ruleDirectories } from './format-rules.ts';
import { piecesToEntries, withImports } from './pieces.ts';
import type { RulesConfig } from './config.ts';

export type RequestedRule =
  | { status: 'ok'; entries: EntryInput[]; verdicts: RuleVerdictInput[]; notes: string[] }
  | { status: 'unknown'; reason: string };

export async function renderRequestedRule(input: { snapshot: Snapshot; task: TaskView; config: RulesConfig; name: string; budget: number; signal: AbortSignal }): Promise<RequestedRule> {
  const { snapshot, task, config, name, signal } = input;
  const found = await findFormatRules({ snapshot, signal, config, cursorRoots: ruleDirectories(task, [], config.maxDirectories), agentKind: config.reviewAgents.includes(task.agent) ? 'code-review' : 'coding-agent' });
  const requestable = found.rules.filter((rule) => rule.activation.kind === 'requested');
  // A path names one file; a name shared by nested directories takes the most specific one.
  const rule = requestable.find((candidate) => candidate.path === name) ?? requestable.filter((candidate) => candidate.name === name).at(-1);
  if (!rule) {
    const known = requestable.map((candidate) => candidate.name);
    return { status: 'unknown', reason: `no agent-requested rule named "${name}" at this commit${known.length > 0 ? `; the index lists ${known.join(', ')}` : ''}` };
  }
  const title = pathTitle(rule.path);
  const expanded = await withImports([{ title, read: rule.read, body: rule.body, stability: 'task', warnings: rule.warnings, imports: true }], { snapshot, config, signal });
  const built = piecesToEntries(snapshot, expanded.pieces, input.budget);
  const verdicts: RuleVerdictInput[] = [{ path: rule.path, blob: rule.read.blob, format: rule.format, verdict: 'applied', reason: `requested by name (${name})`, entry: title }, ...expanded.verdicts];
  return { status: 'ok', entries: built.entries, verdicts, notes: built.notes };
}
