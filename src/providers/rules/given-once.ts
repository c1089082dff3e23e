/**
 * @module providers/rules/given-once
 * A format's file with the same content as a directory file on the chains (a
 * `.claude/CLAUDE.md` or `.github/copilot-instructions.md` that is a symlink to, or a copy of,
 * the root `AGENTS.md`) is given once, as the directory file: the model reads it once and the
 * budget pays for it once. Its verdict says so and names the file it was given as; the directory
 * file's piece gains a warning naming the copy.
 */
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { RulePiece } from './pieces.ts';
import type { RankedPiece } from './rule-entries.ts';

export interface GivenOnce {
  /** The chain's pieces, a copy of each that has copies, with the warning. */
  chain: RankedPiece[];
  pieces: RulePiece[];
  verdicts: RuleVerdictInput[];
}

export function withoutChainCopies(chain: readonly RankedPiece[], pieces: readonly RulePiece[], verdicts: readonly RuleVerdictInput[]): GivenOnce {
  const byBlob = new Map<string, RulePiece>();
  for (const { piece } of chain) if (piece.read) byBlob.set(piece.read.blob, piece);
  const copies = new Map<string, RulePiece>();
  const warnings = new Map<RulePiece, string[]>();
  const kept = pieces.filter((piece) => {
    const original = piece.read ? byBlob.get(piece.read.blob) : undefined;
    if (!piece.read || !original?.read) return true;
    copies.set(`${piece.read.path}\0${piece.read.blob}`, original);
    warnings.set(original, [...(warnings.get(original) ?? []), `${piece.read.path} has the same content (blob ${piece.read.blob.slice(0, 12)}) and is given once, as ${original.read.path}`]);
    return false;
  });
  return {
    chain: chain.map((ranked) => {
      const added = warnings.get(ranked.piece);
      return added ? { ...ranked, piece: { ...ranked.piece, warnings: [...ranked.piece.warnings, ...added] } } : ranked;
    }),
    pieces: kept,
    verdicts: verdicts.map((verdict) => {
      const original = copies.get(`${verdict.path}\0${verdict.blob ?? ''}`);
      if (!original?.read || verdict.verdict !== 'applied') return verdict;
      return { ...verdict, reason: `${verdict.reason}; the same content as ${original.read.path}, given once as it`, entry: original.title };
    }),
  };
}
