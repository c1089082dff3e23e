/**
 * @module providers/rules/provider
 * Repository rules: the AGENTS.md chain from the root to the task's working directory, read at
 * the pinned commit (a pull request's trusted base), general before specific, each file with
 * a fair share of the budget. Every entry is commit-stable: all tasks on one commit and working
 * directory get the same rules, so they belong to the prompt prefix those tasks share.
 */
import * as z from 'zod';
import type { EntryInput } from '../../context/entry.ts';
import { defineProvider, type Provider } from '../../context/provider.ts';
import { pathTitle } from '../../context/title.ts';
import { countTokens } from '../../context/tokens.ts';
import { truncateToTokens } from '../../context/truncate.ts';
import type { ReadResult } from '../../sources/snapshot.ts';
import { directoryChain, findInstructionFiles } from './chain.ts';
import { fairShare } from './fair-share.ts';

export const DEFAULT_RULE_FILES = ['AGENTS.md', 'AGENTS.MD', 'CLAUDE.md', 'CLAUDE.MD'];

export const RulesConfigSchema = z.object({
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
    .default(DEFAULT_RULE_FILES),
  /** Bytes read from one file; larger files are read up to this and say so. */
  maxFileBytes: z.number().int().positive().default(1024 * 1024),
});

export interface RulesProviderOptions {
  timeoutMs?: number;
  budget?: number;
}

export function createRulesProvider(options: RulesProviderOptions = {}): Provider<typeof RulesConfigSchema> {
  return defineProvider({
    name: 'rules',
    category: 'rules',
    config: RulesConfigSchema,
    limits: ['maxFileBytes'],
    requires: ['repo:read'],
    turns: 'first',
    timeoutMs: options.timeoutMs ?? 5_000,
    budget: options.budget ?? 8_000,
    plan({ task, config }) {
      const dirs = directoryChain(task.cwd);
      return { dirs, files: dirs.flatMap((dir) => config.filenames.map((name) => (dir === '' ? name : `${dir}/${name}`))), walks: [] };
    },
    async run({ task, snapshot, config, budget, signal }) {
      // The runner runs repo:read providers only with a snapshot pinned at the task commit.
      if (!snapshot) throw new Error('no repository snapshot was provided');
      const notes: string[] = [];
      const links = await findInstructionFiles(snapshot, task.cwd, config.filenames, signal);
      for (const link of links) if (link.status === 'unavailable') notes.push(`left out ${link.reason}`);

      const paths = links.flatMap((link) => (link.status === 'found' ? [link.path] : []));
      const reads = await Promise.all(paths.map((path) => snapshot.read(path, { maxBytes: config.maxFileBytes, signal })));
      const texts: Array<{ read: Extract<ReadResult, { status: 'ok' }> }> = [];
      for (const read of reads) {
        if (read.status === 'failed') throw new Error(`could not read ${read.path}: ${read.reason}`);
        if (read.status === 'ok') texts.push({ read });
        else notes.push(`left out ${read.path}: ${describeUnreadable(read)}`);
      }

      const shares = fairShare(texts.map(({ read }) => countTokens(read.text)), budget);
      const entries: EntryInput[] = [];
      texts.forEach(({ read }, i) => {
        const cut = truncateToTokens(read.text, shares[i] ?? 0, read.path);
        if (!cut) {
          notes.push(`left out ${read.path}: its share of the ${budget}-token budget cannot hold even the truncation marker`);
          return;
        }
        const warnings: string[] = [];
        if (read.resolvedFrom) warnings.push(`${read.path} is a symlink to ${read.resolvedFrom.target}, resolved at this commit`);
        if (read.truncated) warnings.push(`${read.path}: read the first ${config.maxFileBytes} of ${read.size} bytes`);
        if (cut.truncated) warnings.push(`${read.path}: truncated to a fair share of ${shares[i]} tokens, shown ${cut.shown}/${cut.total} chars`);
        entries.push({
          title: pathTitle(read.path),
          body: cut.text,
          source: { uri: snapshot.uri(read.path), path: read.path, revision: snapshot.commit, blob: read.blob },
          freshness: 'pinned',
          // The chain depends only on the repository, the commit and the working directory.
          stability: 'commit',
          warnings,
          truncated: cut.truncated,
        });
      });
      if (paths.length === 0) notes.push(`no ${config.filenames.join(', ')} from the root to ${task.cwd || '.'}`);
      return { entries, notes };
    },
  });
}

function describeUnreadable(read: Exclude<ReadResult, { status: 'ok' | 'failed' }>): string {
  switch (read.status) {
    case 'missing':
      return 'not in the tree at this commit';
    case 'not-a-file':
      return `is a ${read.kind}`;
    case 'binary':
      return read.reason === 'nul-byte' ? 'binary file' : 'not valid UTF-8';
    case 'unresolved-symlink':
      return `symlink to ${read.target} not followed (${read.reason})`;
    case 'skipped':
      return read.reason;
    case 'invalid-path':
      return read.reason;
  }
}
