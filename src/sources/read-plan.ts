/**
 * @module sources/read-plan
 * What a task's readers will ask of a snapshot, said ahead of time and in the snapshot's own
 * terms (directories listed, files read, directory trees walked), so a source can fetch it in
 * as few round trips as it is able to. A plan is a hint: a snapshot answers every list and read
 * correctly whether or not they were planned. Readers build plans; sources never learn who.
 */

export interface DirectoryWalk {
  /** Where the walk starts; `''` is the root. */
  prefix: string;
  /** Directory levels below `prefix` that may be listed. */
  depth: number;
  /** File names that will be read in walked directories, e.g. `SKILL.md`. */
  read: readonly string[];
  /** Files whose names end with one of these are read too, e.g. `.mdc` for a directory of rules. */
  readSuffixes?: readonly string[];
  /** Those files can only be this many levels below `prefix` or deeper. */
  readFrom: number;
  /** The walk's pattern can match at any depth (`**`), so a fixed read-ahead is a guess. */
  unbounded: boolean;
}

export interface ReadPlan {
  /** Directories that will be listed. */
  dirs: readonly string[];
  /** Files that will be read, when present. */
  files: readonly string[];
  walks: readonly DirectoryWalk[];
}

export const EMPTY_PLAN: ReadPlan = { dirs: [], files: [], walks: [] };

export function mergePlans(plans: readonly ReadPlan[]): ReadPlan {
  const unique = <T>(values: T[]): T[] => [...new Set(values)];
  return {
    dirs: unique(plans.flatMap((plan) => plan.dirs)).sort(),
    files: unique(plans.flatMap((plan) => plan.files)).sort(),
    walks: plans.flatMap((plan) => plan.walks),
  };
}

export function isEmptyPlan(plan: ReadPlan): boolean {
  return plan.dirs.length === 0 && plan.files.length === 0 && plan.walks.length === 0;
}
