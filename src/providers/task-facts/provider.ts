/**
 * @module providers/task-facts/provider
 * Facts about the pull request a task is about (category `system`, first turn, requires
 * `github:api`): title, author, labels, base and head, draft state and totals from the
 * trigger's evidence (webhook payload or the one lookup a comment or Slack `#PR` made), plus the
 * changed files from one `pulls/{n}/files` request (more pages only up to `maxFiles`), which the
 * host makes once for every provider and hands over in `pullRequestFiles`.
 *
 * Everything here is the author's or GitHub's word about a pull request that can change any
 * second: `volatile`, and `task`-stable. The description is the author's text: it is rendered
 * as evidence in a section of its own, escaped like all context, never as the request.
 *
 * Without `github:api` (the CLI, a git-URL task, an agent that lacks it) the provider is
 * `capability-gated`: it is the GitHub capability that makes a listing of files possible, and
 * the pin already names the pull request's base and head. A task that is not about a pull
 * request gets `empty`.
 */
import type { Built } from '../../lib/lazy-schema.ts';
import type { EntryInput } from '../../context/entry.ts';
import { defineProvider, type Provider } from '../../context/provider.ts';
import type { PullRequestFilesResult } from '../../sources/pull-requests.ts';
import { pullRequestEntries } from './render.ts';
import { type TaskFactsConfigSchema, taskFactsSettings } from './settings.ts';

export interface TaskFactsProviderOptions {
  timeoutMs?: number;
  budget?: number;
}

export function createTaskFactsProvider(options: TaskFactsProviderOptions = {}): Provider<Built<typeof TaskFactsConfigSchema>> {
  return defineProvider({
    ...taskFactsSettings(),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    requires: ['github:api'],
    turns: 'first',
    timeoutMs: options.timeoutMs ?? 5_000,
    pullRequestFilesNeeded: (config) => config.maxFiles,
    async run({ task, github, config, signal, pullRequestFiles }) {
      const pr = task.pullRequest;
      if (!pr) return { entries: [], notes: ['the task is not about a pull request'] };
      // The runner hands `github` to every provider it grants github:api.
      if (!github) throw new Error('no GitHub client was provided');
      // A host that listed them for every provider saves the request; one that did not is asked here.
      const files = pullRequestFiles ? firstFiles(pullRequestFiles, config.maxFiles) : await github.pullRequestFiles(pr.number, { limit: config.maxFiles, signal });
      const notes = files.status === 'failed' ? [`changed files not listed: ${files.reason}`] : [];
      const entries: EntryInput[] = pullRequestEntries({ pr, commit: task.commit, repository: github.repository, files, maxFiles: config.maxFiles });
      return { entries, notes };
    },
  });
}

/** The first `limit` of a longer listing, as a listing that stopped at `limit` would be. */
function firstFiles(listed: PullRequestFilesResult, limit: number): PullRequestFilesResult {
  if (listed.status !== 'ok') return listed;
  return { status: 'ok', files: listed.files.slice(0, limit), complete: listed.complete && listed.files.length <= limit };
}
