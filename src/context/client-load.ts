/**
 * @module context/client-load
 * What a client profile (src/clients/) is asked and what it answers. The rules provider finds
 * the rule files of a task at its commit and describes each as a `FoundRuleFile`; a profile says,
 * for the whole list at once (a client's choices depend on each other: a byte budget spent root
 * first, a CLAUDE.md anywhere on the walk turning AGENTS.md off), how that client loads each one
 * by itself: at start, lazily (when), never (why), shadowed by another file of its directory, or
 * cut at n bytes. Every answer names the profile fact it rests on, so docs and tests can cite it.
 *
 * A `ClientCell` is what the verdicts carry: the client's load joined with what Groundwork gives
 * that client (see providers/rules/client-cells).
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { CLIENT_NAMES, type ClientName } from './client.ts';

/** What a found file is: a directory's instruction file, one a file imports, or a format's file. */
export const RULE_FILE_FORMATS = ['directory-file', 'import', 'copilot-instructions', 'github-instructions', 'cursor-rule', 'cursorrules', 'claude-memory', 'claude-rule'] as const;

/** How a scoped format's file activates, as its frontmatter says (providers/rules/formats). */
export type ScopeKind = 'always' | 'globs' | 'requested' | 'never';

export interface FoundRuleFile {
  path: string;
  /** One of {@link RULE_FILE_FORMATS}; anything else no client reads. */
  format: string;
  /** The directory whose rules it is: a directory file's own, a nested `.cursor/`'s parent, `''` for the root's formats. */
  dir: string;
  /** Its size in bytes, when it was read. */
  bytes?: number;
  /** It holds only white space (some clients skip such a file). */
  blank?: boolean;
  /** A scoped format's activation (`scope`) and frontmatter field (`field`, e.g. `applyTo`). */
  scope?: ScopeKind;
  field?: string;
  /** An import: the file that imports it, how many levels down, and the reference as written (without `@`). */
  importedBy?: string;
  depth?: number;
  reference?: string;
  /** Other files found that import this one (`@path`), with the reference as written: a client that loads one of them and follows imports loads this one too. */
  importers?: ReadonlyArray<{ path: string; reference: string }>;
}

export interface LoadContext {
  /** The directory the client starts in: the task's working directory (`''` is the root). */
  cwd: string;
  /** The client's version, when the host named one. */
  version?: string;
  /** The client's host, for a client whose hosts differ (context/client `CLIENT_VARIANTS`). */
  variant?: string;
}

/** How one client loads one file by itself; `fact` is the id of the profile fact it rests on. */
export type ClientLoad =
  | { load: 'start'; fact: string; note?: string }
  | { load: 'lazy'; when: string; fact: string }
  | { load: 'never'; why: string; fact: string }
  | { load: 'shadowed'; by: string; fact: string }
  | { load: 'cut'; at: number; fact: string };

/** How strongly a load puts a file in front of the model by itself, for comparing two answers. */
export const LOAD_STRENGTH: Readonly<Record<ClientLoad['load'], number>> = { start: 4, cut: 3, lazy: 2, shadowed: 1, never: 0 };

/** A cell of the files-by-clients matrix; `loaded` and `cut` files are never given by Groundwork. */
export const CLIENT_CELLS = ['loaded', 'lazy', 'given', 'not-seen', 'shadowed', 'cut'] as const;
export type ClientCellKind = (typeof CLIENT_CELLS)[number];

export const MAX_CELL_CHARS = 200;

export const ClientCellSchema = lazySchema(() => z.object({
  client: z.enum(CLIENT_NAMES),
  cell: z.enum(CLIENT_CELLS),
  /** When (lazy), why (given, not seen), by which file (shadowed), at how many bytes (cut). */
  detail: z.string().max(MAX_CELL_CHARS),
}));
export type ClientCell = z.infer<typeof ClientCellSchema>;

/** Clips a cell's detail to its bound, keeping the start. */
export function boundCell(client: ClientName, cell: ClientCellKind, detail: string): ClientCell {
  return { client, cell, detail: detail.length <= MAX_CELL_CHARS ? detail : `${detail.slice(0, MAX_CELL_CHARS - 1)}…` };
}
