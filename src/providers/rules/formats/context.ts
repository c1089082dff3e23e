/**
 * @module providers/rules/formats/context
 * What every format module is handed, and what it hands back: rules it read, files it found but
 * left unread (turned off by a setting, unreadable), and notes for the outcome.
 */
import type { Snapshot, TreeEntry } from '../../../sources/snapshot.ts';
import type { ReadOk, FoundRule, RuleFormat } from './rule-file.ts';

export interface FormatContext {
  snapshot: Snapshot;
  signal: AbortSignal;
  maxFileBytes: number;
  /** Levels below a rules directory that are searched. */
  maxDepth: number;
  /** Rule files one walk returns. */
  maxFiles: number;
  /** The format is turned off by this setting (its name), or undefined when on. */
  disabledBy?: string | undefined;
}

export interface Skipped {
  format: RuleFormat;
  path: string;
  blob?: string | undefined;
  reason: string;
}

export interface FormatFinding {
  rules: FoundRule[];
  skipped: Skipped[];
  notes: string[];
  /** The agent kind what was found depends on, when it does (a file's `excludeAgent` named one). */
  agentKind?: AgentKind;
}

export type AgentKind = 'code-review' | 'coding-agent';

export const EMPTY_FINDING: FormatFinding = { rules: [], skipped: [], notes: [] };

export type RuleRead = { ok: true; read: ReadOk } | { ok: false; reason: string };

/** Reads a found file; an unreadable source is a failure (thrown), anything else a reason. */
export async function readRuleFile(context: FormatContext, path: string): Promise<RuleRead> {
  const read = await context.snapshot.read(path, { maxBytes: context.maxFileBytes, signal: context.signal });
  switch (read.status) {
    case 'ok':
      return { ok: true, read };
    case 'failed':
      throw new Error(`could not read ${read.path}: ${read.reason}`);
    case 'missing':
      return { ok: false, reason: 'not in the tree at this commit' };
    case 'not-a-file':
      return { ok: false, reason: `is a ${read.kind}` };
    case 'binary':
      return { ok: false, reason: read.reason === 'nul-byte' ? 'binary file' : 'not valid UTF-8' };
    case 'unresolved-symlink':
      return { ok: false, reason: `symlink to ${read.target} not followed (${read.reason})` };
    case 'skipped':
    case 'invalid-path':
      return { ok: false, reason: read.reason };
  }
}

/** The files a turned-off format would have read, each with the setting that turned it off. */
export function disabled(format: RuleFormat, files: readonly TreeEntry[], setting: string): Skipped[] {
  return files.map((file) => ({ format, path: file.path, blob: file.oid, reason: `turned off by a setting (${setting}: false)` }));
}

/** Warnings of a read: a resolved symlink, a file cut at the byte cap. */
export function readWarnings(read: ReadOk, maxFileBytes: number): string[] {
  const warnings: string[] = [];
  if (read.resolvedFrom) warnings.push(`${read.path} is a symlink to ${read.resolvedFrom.target}, resolved at this commit`);
  if (read.truncated) warnings.push(`${read.path}: read the first ${maxFileBytes} of ${read.size} bytes`);
  return warnings;
}
