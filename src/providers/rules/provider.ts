/**
 * @module providers/rules/provider
 * Repository rules, read at the pinned commit (a pull request's trusted base): the instruction
 * file of every directory on the chains of the task's working directory and focus paths
 * (chain.ts, focus-chains.ts), general before specific, then the other instruction formats
 * (Copilot, Cursor, Claude rules; see format-rules), each file's `@path` imports right after it
 * where its tool defines them, and the index of agent-requested rules. Every piece shares the
 * budget max-min fairly, the file nearest to each focus path kept longest (rule-entries), and
 * every file found gets a verdict. What the working directory's chain gives, and what applies
 * whatever the task touches, is commit-stable: every task on one commit and working directory
 * gets the same bytes, the prefix those tasks share; what only focus paths bring is task-stable
 * and renders after it.
 *
 * Later turns (`turns: 'moved'`): when the host recorded new focus paths for the turn, the files
 * their chains bring and the scoped rules they newly match, that the model was not given on an
 * earlier turn (later-turn.ts).
 */
import { FOCUS_LIMITS, pullRequestFocus } from '../../context/focus.ts';
import { defineProvider, type Provider, type ProviderRequest, type ProviderResult, type TaskView } from '../../context/provider.ts';
import type { Built } from '../../lib/lazy-schema.ts';
import type { ReadPlan } from '../../sources/read-plan.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { CLIENT_DIRECTORY_NAMES } from '../../clients/index.ts';
import { focusDirectories } from './chain.ts';
import { boundNotice, budgetNotice, leftOutNote, leftOutNotice, unlistedNotice } from './chain-notices.ts';
import type { RulesConfigSchema, RulesConfig } from './config.ts';
import { CLAUDE_MEMORY } from './formats/claude-memory.ts';
import { ruleEntries } from './rule-entries.ts';
import { gatherRules, resolve } from './rule-set.ts';
import { CLAUDE_RULES_DIR } from './formats/claude-rules.ts';
import { COPILOT_INSTRUCTIONS } from './formats/copilot.ts';
import { cursorRulesDir, LEGACY_CURSOR_RULES } from './formats/cursor.ts';
import { GITHUB_INSTRUCTIONS_DIR, INSTRUCTIONS_SUFFIX } from './formats/github-instructions.ts';
import { laterTurnRules } from './later-turn.ts';
import { rulesSettings } from './settings.ts';

export { DEFAULT_RULE_FILES, RulesConfigSchema, type RulesConfig } from './config.ts';

export interface RulesProviderOptions {
  timeoutMs?: number;
  budget?: number;
}

export function createRulesProvider(options: RulesProviderOptions = {}): Provider<Built<typeof RulesConfigSchema>> {
  return defineProvider({
    ...rulesSettings(),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    requires: ['repo:read'],
    turns: 'moved',
    timeoutMs: options.timeoutMs ?? 5_000,
    // The first files of a pull request are focus paths (context/focus).
    pullRequestFilesNeeded: () => FOCUS_LIMITS.pullRequestFiles,
    plan({ task, config, focusFiles }) {
      return rulesReadPlan(task, config, focusFiles);
    },
    run(request) {
      // The runner runs repo:read providers only with a snapshot pinned at the task commit.
      if (!request.snapshot) throw new Error('no repository snapshot was provided');
      return request.turn === 0 ? firstTurnRules(request, request.snapshot) : laterTurnRules(request, request.snapshot);
    },
  });
}

/**
 * The directory files of every focus chain, and the formats' files and directories (nested
 * `.cursor/rules` along the same chains), said ahead so a GitHub task reads them all in its one
 * query. Turned-off formats are still listed: their files get a verdict saying so.
 */
export function rulesReadPlan(task: TaskView, config: RulesConfig, focusFiles: readonly string[] = []): ReadPlan {
  const { dirs } = focusDirectories(task.cwd, task.focusPaths, { files: focusFiles, max: config.maxDirectories });
  const depth = config.maxRuleDepth;
  // A client's own names are read beside the instruction file, so the plan says them too.
  const names = [...new Set([...config.filenames, ...CLIENT_DIRECTORY_NAMES])];
  const walk = (prefix: string, suffixes: readonly string[]) => ({ prefix, depth, read: [], readSuffixes: suffixes, readFrom: 0, unbounded: false });
  return {
    dirs: [...dirs, '.github', '.claude'],
    files: [...dirs.flatMap((dir) => names.map((name) => (dir === '' ? name : `${dir}/${name}`))), COPILOT_INSTRUCTIONS, LEGACY_CURSOR_RULES, CLAUDE_MEMORY],
    walks: [walk(GITHUB_INSTRUCTIONS_DIR, [INSTRUCTIONS_SUFFIX]), walk(CLAUDE_RULES_DIR, ['.md']), ...dirs.map((dir) => walk(cursorRulesDir(dir), ['.mdc', '.md']))],
  };
}

async function firstTurnRules(request: ProviderRequest<RulesConfig>, snapshot: Snapshot): Promise<ProviderResult> {
  const { task, config, budget, signal } = request;
  const focused = task.focusPaths.length > 0 || task.pullRequest !== undefined;
  const input = { task, focusFiles: request.focusFiles, config, signal };
  const gathered = await gatherRules(snapshot, input);
  const { chains } = gathered;
  const resolved = await resolve(snapshot, input, gathered, true);
  const made = ruleEntries(snapshot, resolved.ranked, budget);
  const built = { entries: made.entries, verdicts: resolved.verdicts, dropped: made.dropped.map((piece) => piece.read?.path ?? piece.title) };
  const notes = [...gathered.notes, ...made.notes];

  const stability = focused ? ('task' as const) : ('commit' as const);
  const notices: NonNullable<ProviderResult['notices']> = [];
  const pr = task.pullRequest;
  if (pr) {
    const files = request.pullRequestFiles;
    if (files?.status !== 'ok') {
      notices.push({ text: unlistedNotice(pr.number, files?.status === 'failed'), stability: 'task' });
      notes.push(files ? `the pull request's changed files could not be listed: ${files.reason}` : "the pull request's changed files were not listed for this task");
    } else {
      const focus = pullRequestFocus(files.files, files.complete, pr.changedFiles);
      if (focus.leftOut.count > 0 || !focus.leftOut.exact) {
        notices.push({ text: leftOutNotice(pr.number, focus.leftOut), stability: 'task' });
        // The outcome says it too, first: a reviewer reads the check run, not the model's notices.
        notes.unshift(leftOutNote(focus.leftOut));
      }
      if (focus.unusable > 0) notes.push(`${focus.unusable} changed ${focus.unusable === 1 ? 'path is' : 'paths are'} not a path inside the tree and ${focus.unusable === 1 ? 'was' : 'were'} not followed`);
    }
  }
  if (chains.cut.length > 0) notices.push({ text: boundNotice(chains.cut, config.maxDirectories), stability });
  if (built.dropped.length > 0) notices.push({ text: budgetNotice(built.dropped, budget), stability });
  if (chains.files.length === 0 && gathered.formatPieces === 0) notes.push(`no ${config.filenames.join(', ')} on the chains of ${task.cwd || '.'}${task.focusPaths.length > 0 ? ` and ${task.focusPaths.length} focus paths` : ''}`);
  return { entries: built.entries, notes, notices, verdicts: built.verdicts };
}
