/**
 * @module context/turn-policy
 * Which providers run on which turn, said once for the runner, the read plan, the settings and
 * the host's "does this turn read the repository" question, so they cannot disagree.
 */
import type { Moved, TurnPolicy } from './provider.ts';

/** Whether the host recorded anything new for this turn to follow. */
export function hasMoved(moved: Moved): boolean {
  return moved.paths.length > 0 || moved.skills.length > 0 || moved.rules.length > 0;
}

export function runsOnTurn(turns: TurnPolicy, turn: number, moved: Moved): boolean {
  if (turn === 0 || turns === 'all') return true;
  return turns === 'moved' && hasMoved(moved);
}

/** The `turn-gated` outcome's reason for a provider that does not run on `turn`. */
export function turnGateReason(turns: TurnPolicy, turn: number): string {
  return turns === 'moved'
    ? `runs on a later turn only when the host recorded new focus paths or names for it (this is turn ${turn}, with none)`
    : `runs on the first turn only (this is turn ${turn})`;
}
