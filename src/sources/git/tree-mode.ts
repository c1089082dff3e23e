/**
 * @module sources/git/tree-mode
 * Maps a git tree mode to an entry kind. Old repositories carry non-canonical file modes (e.g.
 * 100664), which git itself treats as regular files.
 */
import type { TreeEntryKind } from '../snapshot.ts';

export function kindOfMode(mode: string): TreeEntryKind | undefined {
  if (mode === '040000' || mode === '40000') return 'dir';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  if (mode.startsWith('100')) return 'file';
  return undefined;
}
