/**
 * @module providers/rules/provider
 * Repository rules: the instruction file of every directory on the chains of the task's working
 * directory and focus paths (chain.ts), read at the pinned commit (a pull request's trusted
 * base), general before specific, each file with a fair share of the budget (chain-budget.ts).
 * What the working directory's chain gives is commit-stable: every task on one commit and
 * working directory gets the same bytes, the prefix those tasks share; what only focus paths
 * bring is task-stable and renders after it (chain-entries.ts).
 *
 * Later turns (`turns: 'moved'`): when the host recorded new focus paths for the turn, the files
 * their chains bring that the model was not given on an earlier turn (later-turn.ts).
 */
import { FOCUS_LIMITS, pullRequestFocus } from '../../context/focus.ts';
import { defineProvider, type Provider, type ProviderRequest, type ProviderResult } from '../../context/provider.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { focusDirectories } from './chain.ts';
import { chainEntries } from './chain-entries.ts';
import { boundNotice, budgetNotice, leftOutNotice, unlistedNotice } from './chain-notices.ts';
import { focusNotes, readChainFiles } from './chain-reads.ts';
import { RulesConfigSchema, type RulesConfig } from './config.ts';
import { readFocusChains } from './focus-chains.ts';
import { laterTurnRules } from './later-turn.ts';

export { DEFAULT_RULE_FILES, RulesConfigSchema, type RulesConfig } from './config.ts';

export interface RulesProviderOptions {
  timeoutMs?: number;
  budget?: number;
}

export function createRulesProvider(options: RulesProviderOptions = {}): Provider<typeof RulesConfigSchema> {
  return defineProvider({
    name: 'rules',
    category: 'rules',
    config: RulesConfigSchema,
    limits: ['maxFileBytes', 'maxDirectories'],
    requires: ['repo:read'],
    turns: 'moved',
    timeoutMs: options.timeoutMs ?? 5_000,
    budget: options.budget ?? 8_000,
    // The first files of a pull request are focus paths (context/focus).
    pullRequestFilesNeeded: () => FOCUS_LIMITS.pullRequestFiles,
    plan({ task, config, focusFiles }) {
      const { dirs } = focusDirectories(task.cwd, task.focusPaths, { files: focusFiles, max: config.maxDirectories });
      return { dirs, files: dirs.flatMap((dir) => config.filenames.map((name) => (dir === '' ? name : `${dir}/${name}`))), walks: [] };
    },
    run(request) {
      // The runner runs repo:read providers only with a snapshot pinned at the task commit.
      if (!request.snapshot) throw new Error('no repository snapshot was provided');
      return request.turn === 0 ? firstTurnRules(request, request.snapshot) : laterTurnRules(request, request.snapshot);
    },
  });
}

async function firstTurnRules(request: ProviderRequest<RulesConfig>, snapshot: Snapshot): Promise<ProviderResult> {
  const { task, config, budget, signal } = request;
  const focused = task.focusPaths.length > 0 || task.pullRequest !== undefined;
  const chains = await readFocusChains(snapshot, { cwd: task.cwd, focusPaths: task.focusPaths, focusFiles: request.focusFiles, filenames: config.filenames, maxDirectories: config.maxDirectories }, signal);
  const { texts, notes } = await readChainFiles(snapshot, chains.files, config.maxFileBytes, signal);
  notes.unshift(...focusNotes(chains, config.maxDirectories));
  const made = chainEntries(snapshot, texts, { budget, maxFileBytes: config.maxFileBytes, order: [task.cwd === '' ? '.' : task.cwd, ...task.focusPaths], shareable: true });
  notes.push(...made.notes);

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
      if (focus.leftOut.count > 0 || !focus.leftOut.exact) notices.push({ text: leftOutNotice(pr.number, focus.leftOut), stability: 'task' });
      if (focus.unusable > 0) notes.push(`${focus.unusable} changed ${focus.unusable === 1 ? 'path is' : 'paths are'} not a path inside the tree and ${focus.unusable === 1 ? 'was' : 'were'} not followed`);
    }
  }
  if (chains.cut.length > 0) notices.push({ text: boundNotice(chains.cut, config.maxDirectories), stability });
  if (made.dropped.length > 0) notices.push({ text: budgetNotice(made.dropped, budget), stability });
  if (made.entries.length === 0 && chains.files.length === 0) notes.push(`no ${config.filenames.join(', ')} on the chains of ${task.cwd || '.'}${task.focusPaths.length > 0 ? ` and ${task.focusPaths.length} focus paths` : ''}`);
  return { entries: made.entries, notes, notices };
}

