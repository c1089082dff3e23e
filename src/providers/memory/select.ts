/**
 * @module providers/memory/select
 * Which knowledge a task sees, in which order: objects past their review date are left out (and
 * named); the rest are ranked by how closely their paths match what the task is about, then
 * newest first, then by id, so the same store, clock and task always give the same order.
 *
 * Relevance, most relevant first:
 *   0  a path overlaps a path the request names (one contains the other)
 *   1  a path contains the working directory
 *   2  no paths: about the whole repository
 *   3  paths elsewhere in the repository
 */
import type { Knowledge } from '../../context/knowledge.ts';

export interface Selection {
  /** In render order. */
  ranked: Knowledge[];
  /** Past their review date (before `today`), by id. */
  expired: string[];
}

export function selectKnowledge(objects: readonly Knowledge[], focus: { today: string; cwd: string; named: readonly string[] }): Selection {
  const expired = objects.filter((k) => k.reviewBy < focus.today).map((k) => k.id).sort();
  const ranked = objects
    .filter((k) => k.reviewBy >= focus.today)
    .map((knowledge) => ({ knowledge, rank: relevance(knowledge, focus) }))
    .sort((a, b) => a.rank - b.rank || compareDesc(a.knowledge.createdAt, b.knowledge.createdAt) || compareAsc(a.knowledge.id, b.knowledge.id))
    .map(({ knowledge }) => knowledge);
  return { ranked, expired };
}

function relevance(knowledge: Knowledge, focus: { cwd: string; named: readonly string[] }): number {
  const paths = knowledge.paths ?? [];
  if (paths.some((path) => focus.named.some((named) => within(named, path) || within(path, named)))) return 0;
  if (paths.some((path) => within(focus.cwd, path))) return 1;
  return paths.length === 0 ? 2 : 3;
}

/** `inner` is `outer` or lies below it. */
function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`);
}

const compareAsc = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compareDesc = (a: string, b: string) => compareAsc(b, a);
