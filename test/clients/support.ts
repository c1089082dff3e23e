/**
 * @module test/clients/support
 * The rule set of an in-memory tree for one client, and what its verdicts say per client: what the
 * client-profile tests assert against. Trees are shaped like real repositories (a monorepo with
 * mixed AGENTS.md/CLAUDE.md/GEMINI.md, nested .cursor/rules, Copilot applyTo files, imports).
 */
import { expect } from 'vitest';
import { parseClient, type ClientName, type ClientRef } from '../../src/context/client.ts';
import type { ClientCellKind } from '../../src/context/client-load.ts';
import type { RuleVerdict } from '../../src/context/rule-verdict.ts';
import { RulesConfigSchema, type RulesConfig } from '../../src/providers/rules/config.ts';
import { ruleSet, type RuleSet } from '../../src/providers/rules/rule-set.ts';
import { memorySnapshot, type MemoryFile } from '../support/memory-tree.ts';

export interface SetOptions {
  cwd?: string;
  focus?: readonly string[];
  /** `codex`, `claude-code@2.1.200`, `copilot:cli`; default `none`. */
  client?: string;
  config?: Partial<RulesConfig>;
}

/** A client as a host names it (`claude-code@2.1.200`, `copilot:cli`), parsed; a name the test got wrong throws. */
export function clientRefOf(name: string): ClientRef {
  const parsed = parseClient(name);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.client;
}

export async function setOf(files: Record<string, MemoryFile>, options: SetOptions = {}): Promise<RuleSet> {
  const config = RulesConfigSchema.parse(options.config ?? {});
  return ruleSet(await memorySnapshot(files), {
    task: { cwd: options.cwd ?? '', focusPaths: options.focus ?? [], agent: 'entry', client: clientRefOf(options.client ?? 'none') },
    config,
    signal: AbortSignal.timeout(10_000),
  });
}

/** The verdict of the file itself (the one with the matrix row), not of a reference to it. */
export function fileOf(set: RuleSet, path: string): RuleVerdict {
  const found = set.files.find((file) => file.path === path && file.clients !== undefined);
  if (!found) throw new Error(`no file ${path} in ${set.files.map((file) => file.path).join(', ')}`);
  return found;
}

export function cellOf(set: RuleSet, path: string, client: ClientName): { cell: ClientCellKind; detail: string } {
  const cell = fileOf(set, path).clients?.find((candidate) => candidate.client === client);
  if (!cell) throw new Error(`no ${client} cell for ${path}`);
  return cell;
}

/** Paths Groundwork gives the set's client, in render order. */
export function givenPaths(set: RuleSet): string[] {
  return set.given.flatMap((piece) => (piece.path === undefined ? [] : [piece.path]));
}

/** A scenario that pins one profile fact: what the client does with each file named. */
export interface FactCase {
  fact: string;
  /** Where the fact is read (the profile's source, in short), so the test names it. */
  source: string;
  files: Record<string, MemoryFile>;
  cwd?: string;
  focus?: readonly string[];
  client: string;
  cells: Record<string, ClientCellKind>;
  /** Text each named file's cell detail holds. */
  details?: Record<string, string>;
}

export async function checkCase(c: FactCase, name: ClientName): Promise<RuleSet> {
  const set = await setOf(c.files, { ...(c.cwd === undefined ? {} : { cwd: c.cwd }), ...(c.focus ? { focus: c.focus } : {}), client: c.client });
  for (const [path, expected] of Object.entries(c.cells)) expect([path, cellOf(set, path, name).cell]).toEqual([path, expected]);
  for (const [path, text] of Object.entries(c.details ?? {})) expect(cellOf(set, path, name).detail).toContain(text);
  // The complement never holds a file the client loaded at start.
  for (const path of givenPaths(set)) expect(fileOf(set, path).clients?.find((cell) => cell.client === name)?.cell).not.toBe('loaded');
  return set;
}

/** The fact ids the cases pin, to hold against the profile's list. */
export function factsOf(cases: readonly { fact: string }[]): string[] {
  return [...new Set(cases.map((c) => c.fact))].sort();
}

/** A 1 KiB line of rule text, repeated to make a file of `kib` KiB. */
export function kib(n: number, mark = 'x'): string {
  return `${mark.repeat(1023)}\n`.repeat(n);
}
