/**
 * @module providers/rules/provider
 * Repository rules, read at the pinned commit (a pull request's trusted base): the AGENTS.md
 * chain from the root to the task's working directory, general before specific, then the other
 * instruction formats (Copilot, Cursor, Claude rules; see format-rules), each file's `@path`
 * imports right after it where its tool defines them, and the index of agent-requested rules.
 * Every file read shares the budget max-min fairly, and every file found gets a verdict.
 * What applies whatever the task touches, or because of its working directory, is
 * commit-stable (the prompt prefix tasks on that commit share); what only a focus path
 * brings is task-stable.
 */
import * as z from 'zod';
import { defineProvider, type Provider } from '../../context/provider.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import { pathTitle } from '../../context/title.ts';
import type { ReadPlan } from '../../sources/read-plan.ts';
import type { ReadResult } from '../../sources/snapshot.ts';
import { directoryChain, findInstructionFiles } from './chain.ts';
import { FORMAT_CONFIG, FORMAT_LIMITS } from './format-config.ts';
import { focusDirectories, gatherFormatRules } from './format-rules.ts';
import { CLAUDE_RULES_DIR } from './formats/claude-rules.ts';
import { COPILOT_INSTRUCTIONS } from './formats/copilot.ts';
import { cursorRulesDir, LEGACY_CURSOR_RULES } from './formats/cursor.ts';
import { GITHUB_INSTRUCTIONS_DIR, INSTRUCTIONS_SUFFIX } from './formats/github-instructions.ts';
import { importsIn, piecesToEntries, withImports, type RulePiece } from './pieces.ts';

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
  ...FORMAT_CONFIG,
});
export type RulesConfig = z.output<typeof RulesConfigSchema>;

export interface RulesProviderOptions {
  timeoutMs?: number;
  budget?: number;
}

export function createRulesProvider(options: RulesProviderOptions = {}): Provider<typeof RulesConfigSchema> {
  return defineProvider({
    name: 'rules',
    category: 'rules',
    config: RulesConfigSchema,
    limits: ['maxFileBytes', ...FORMAT_LIMITS],
    requires: ['repo:read'],
    turns: 'first',
    timeoutMs: options.timeoutMs ?? 5_000,
    budget: options.budget ?? 8_000,
    plan({ task, config }) {
      return rulesReadPlan(task, config);
    },
    async run({ task, snapshot, config, budget, signal }) {
      // The runner runs repo:read providers only with a snapshot pinned at the task commit.
      if (!snapshot) throw new Error('no repository snapshot was provided');
      const notes: string[] = [];
      const readChain = async () => {
        const links = await findInstructionFiles(snapshot, task.cwd, config.filenames, signal);
        for (const link of links) if (link.status === 'unavailable') notes.push(`left out ${link.reason}`);
        const found = links.flatMap((link) => (link.status === 'found' ? [link.path] : []));
        return { paths: found, reads: await Promise.all(found.map((path) => snapshot.read(path, { maxBytes: config.maxFileBytes, signal }))) };
      };
      // Both read from the same planned part of the tree, so neither waits for the other.
      const [{ paths, reads }, formats] = await Promise.all([readChain(), gatherFormatRules({ snapshot, task, config, signal })]);
      const chain: RulePiece[] = [];
      const verdicts: RuleVerdictInput[] = [];
      for (const read of reads) {
        if (read.status === 'failed') throw new Error(`could not read ${read.path}: ${read.reason}`);
        if (read.status !== 'ok') {
          notes.push(`left out ${read.path}: ${describeUnreadable(read)}`);
          verdicts.push({ path: read.path, format: 'directory-file', verdict: 'not-applied', reason: describeUnreadable(read) });
          continue;
        }
        const warnings: string[] = [];
        if (read.resolvedFrom) warnings.push(`${read.path} is a symlink to ${read.resolvedFrom.target}, resolved at this commit`);
        if (read.truncated) warnings.push(`${read.path}: read the first ${config.maxFileBytes} of ${read.size} bytes`);
        chain.push({ title: pathTitle(read.path), read, body: read.text, stability: 'commit', warnings, imports: importsIn(read.path) });
        verdicts.push({ path: read.path, blob: read.blob, format: 'directory-file', verdict: 'applied', reason: `directory chain of ${task.cwd || '.'}`, entry: pathTitle(read.path) });
      }
      notes.push(...formats.notes);
      verdicts.push(...formats.verdicts);

      const expanded = await withImports([...chain, ...formats.pieces], {
        enabled: config.imports,
        snapshot,
        maxDepth: config.maxImportDepth,
        maxFileBytes: config.maxFileBytes,
        budget: { left: config.maxImports },
        signal,
      });
      verdicts.push(...expanded.verdicts);
      const built = piecesToEntries(snapshot, expanded.pieces, budget);
      notes.push(...built.notes);
      if (paths.length === 0 && formats.pieces.length === 0) notes.push(`no ${config.filenames.join(', ')} from the root to ${task.cwd || '.'}`);
      return { entries: built.entries, notes, verdicts };
    },
  });
}

/**
 * The chain's directory files, and the formats' files and directories (nested `.cursor/rules`
 * along every focus chain), said ahead so a GitHub task reads them all in its one query.
 * Turned-off formats are still listed: their files get a verdict saying so.
 */
export function rulesReadPlan(task: Parameters<NonNullable<Provider['plan']>>[0]['task'], config: RulesConfig): ReadPlan {
  const dirs = directoryChain(task.cwd);
  const depth = config.maxRuleDepth;
  const walk = (prefix: string, suffixes: readonly string[]) => ({ prefix, depth, read: [], readSuffixes: suffixes, readFrom: 0, unbounded: false });
  return {
    dirs: [...dirs, '.github'],
    files: [...dirs.flatMap((dir) => config.filenames.map((name) => (dir === '' ? name : `${dir}/${name}`))), COPILOT_INSTRUCTIONS, LEGACY_CURSOR_RULES],
    walks: [
      walk(GITHUB_INSTRUCTIONS_DIR, [INSTRUCTIONS_SUFFIX]),
      walk(CLAUDE_RULES_DIR, ['.md']),
      ...focusDirectories(task).map((dir) => walk(cursorRulesDir(dir), ['.mdc', '.md'])),
    ],
  };
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
