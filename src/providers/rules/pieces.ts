/**
 * @module providers/rules/pieces
 * Everything the rules provider gives the model is a piece: one file read at the commit (a
 * directory file, a format's rule file, an imported file, or the rules index), in render order.
 * Pieces share one budget max-min fairly and each becomes one entry with its own provenance.
 */
import type { EntryInput, Stability } from '../../context/entry.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import { clipTitle } from '../../context/title.ts';
import { countTokens } from '../../context/tokens.ts';
import { truncateToTokens } from '../../context/truncate.ts';
import { parentOf } from '../../sources/paths.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { RulesConfig } from './config.ts';
import { fairShare } from './fair-share.ts';
import type { FoundRule, ReadOk } from './formats/rule-file.ts';
import { expandImports, type ImportOptions } from './imports.ts';

export interface RulePiece {
  title: string;
  /** Where the body came from; absent for the index, which is built from several files. */
  read?: ReadOk;
  body: string;
  stability: Stability;
  warnings: string[];
  /** Whether `@path` imports in it are expanded (the formats whose tools define them). */
  imports: boolean;
  /** The rules index: the rules it lists, so it can be listed again without those a client offers itself. */
  indexed?: readonly FoundRule[];
  /** Why Groundwork gives it to the task's client (absent for `none`): the entry's `why`. */
  why?: string;
}

/** Basenames of directory files whose tools (Claude Code, Gemini CLI) expand `@path` imports. */
const IMPORTING_FILES = new Set(['claude.md', 'gemini.md']);

export function importsIn(path: string): boolean {
  return IMPORTING_FILES.has(path.slice(path.lastIndexOf('/') + 1).toLowerCase());
}

/**
 * Pieces with each importing piece followed by the files it imports (depth first, in the order
 * referenced), the verdicts of those imports, and warnings for the ones that could not be given.
 * Importers are expanded one after another, so which file a shared import follows is fixed.
 */
export async function withImports(
  pieces: readonly RulePiece[],
  run: { snapshot: Snapshot; config: Pick<RulesConfig, 'imports' | 'maxImportDepth' | 'maxFileBytes' | 'maxImports'>; signal: AbortSignal },
): Promise<{ pieces: RulePiece[]; verdicts: RuleVerdictInput[] }> {
  const { config } = run;
  const options: Omit<ImportOptions, 'given'> & { enabled: boolean } = {
    enabled: config.imports,
    snapshot: run.snapshot,
    maxDepth: config.maxImportDepth,
    maxFileBytes: config.maxFileBytes,
    budget: { left: config.maxImports },
    signal: run.signal,
  };
  const given = new Set(pieces.flatMap((piece) => (piece.read ? [piece.read.path] : [])));
  const out: RulePiece[] = [];
  const verdicts: RuleVerdictInput[] = [];
  for (const piece of pieces) {
    const at = out.push(piece) - 1;
    if (!options.enabled || !piece.imports || !piece.read) continue;
    const expanded = await expandImports({ path: piece.read.path, text: piece.body }, { ...options, given });
    for (const step of expanded.steps) {
      if ('problem' in step) {
        const { problem } = step;
        if (!problem.warn) continue;
        // A copy: the pieces may be a snapshot's kept gathering (rules-memo), resolved again.
        const warned = out[at] ?? piece;
        out[at] = { ...warned, warnings: [...warned.warnings, problem.reason] };
        verdicts.push({ path: problem.path || piece.read.path, format: 'import', verdict: 'not-applied', reason: problem.reason });
        continue;
      }
      const { file } = step;
      const title = clipTitle(`${file.path} (imported by ${file.importedBy})`);
      out.push({ title, read: file.read, body: file.read.text, stability: piece.stability, warnings: [], imports: false });
      const found = { dir: parentOf(file.path), bytes: file.read.size, blank: file.read.text.trim() === '', importedBy: file.importedBy, depth: file.depth, reference: file.reference, shared: piece.stability === 'commit' };
      verdicts.push({ path: file.path, blob: file.read.blob, format: 'import', verdict: 'applied', reason: `imported by ${file.importedBy}${file.depth > 1 ? ` (${file.depth} levels down)` : ''}`, entry: title, found });
    }
  }
  return { pieces: out, verdicts };
}

/** Max-min fair shares of `budget`, then one entry per piece that holds at least its marker. */
export function piecesToEntries(snapshot: Snapshot, pieces: readonly RulePiece[], budget: number): { entries: EntryInput[]; notes: string[]; dropped: Set<string> } {
  const shares = fairShare(pieces.map((piece) => countTokens(piece.body)), budget);
  const entries: EntryInput[] = [];
  const notes: string[] = [];
  const dropped = new Set<string>();
  pieces.forEach((piece, i) => {
    const name = piece.read?.path ?? piece.title;
    const cut = truncateToTokens(piece.body, shares[i] ?? 0, name);
    if (!cut) {
      notes.push(`left out ${name}: its share of the ${budget}-token budget cannot hold even the truncation marker`);
      dropped.add(piece.title);
      return;
    }
    const warnings = [...piece.warnings];
    if (cut.truncated) warnings.push(`${name}: truncated to a fair share of ${shares[i]} tokens, shown ${cut.shown}/${cut.total} chars`);
    entries.push({
      title: piece.title,
      body: cut.text,
      source: piece.read ? { uri: snapshot.uri(piece.read.path), path: piece.read.path, revision: snapshot.commit, blob: piece.read.blob } : { uri: snapshot.uri(''), revision: snapshot.commit },
      freshness: 'pinned',
      stability: piece.stability,
      warnings,
      truncated: cut.truncated,
    });
  });
  return { entries, notes, dropped };
}
