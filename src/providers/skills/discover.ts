/**
 * @module providers/skills/discover
 * Finds the directories that hold a `SKILL.md` under the configured roots, through
 * `Snapshot.list` only. The walk goes breadth first, one level at a time, with each level's
 * listings in parallel and sorted, so which directories fall outside `maxDirectories` is the
 * same on every run. Symlinked directories are never entered: only `dir` entries are walked.
 *
 * A directory is a skill when it holds `SKILL.md`, or `skill.md` when there is no `SKILL.md`
 * (as the reference validator accepts). Where a root names its skills exactly (no `**`), a
 * matched directory without one, or a literal root that is missing or not a directory, is
 * reported with its rule, as the reference reports a directory it was asked to validate.
 */
import type { ListResult, Snapshot, TreeEntry } from '../../sources/snapshot.ts';
import type { RootPattern } from './config.ts';
import { findSkillFile, SKILL_FILE } from '../../lib/skill-file.ts';
import { ruleWarning } from './rules.ts';


export interface FoundSkill {
  /** Directory of the skill; its base name should equal the skill's name. */
  dir: string;
  /** Path of its SKILL.md. */
  path: string;
}

export interface Discovery {
  /** Sorted by path. */
  found: FoundSkill[];
  warnings: string[];
}

export interface DiscoveryLimits {
  maxDepth: number;
  maxDirectories: number;
}

/** A place in the walk: a directory and how much of the root's pattern is still to match there. */
interface Step {
  dir: string;
  at: number;
  depth: number;
}

const byDir = (a: Step, b: Step) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : a.at - b.at);

export async function discoverSkills(snapshot: Snapshot, roots: readonly RootPattern[], limits: DiscoveryLimits, signal: AbortSignal): Promise<Discovery> {
  const listings = new Map<string, Promise<ListResult>>();
  const found = new Map<string, FoundSkill>();
  const warnings: string[] = [];

  for (const root of roots) {
    let depthHit = false;
    let countHit = false;
    const seen = new Set<string>();
    let level: Step[] = [{ dir: root.prefix, at: 0, depth: 0 }];
    // The budget is shared: the roots before this one may have spent it before it is looked at.
    let unsearched = false;

    while (level.length > 0) {
      signal.throwIfAborted();
      const steps = admit(level, listings, limits.maxDirectories);
      if (steps.length < level.length) countHit = true;
      if (steps.length === 0 && level[0]?.depth === 0) unsearched = true;
      for (const step of steps) {
        if (!listings.has(step.dir)) listings.set(step.dir, snapshot.list(step.dir, { signal }));
      }
      const listed = await Promise.all(steps.map(async (step) => ({ step, listing: await listings.get(step.dir) })));

      const next: Step[] = [];
      for (const { step, listing } of listed) {
        if (!listing) continue;
        if (listing.status === 'missing' || listing.status === 'not-a-directory') {
          if (root.rest.length === 0 && !root.optional) warnings.push(literalRootWarning(root, listing.status));
          continue;
        }
        // An unreadable source leaves the skills unknown: a failure, never an empty index.
        if (listing.status === 'failed') throw new Error(`could not list ${step.dir || '/'} (root ${root.text}): ${listing.reason}`);
        if (listing.status !== 'ok') {
          warnings.push(`could not list ${step.dir || '/'} (root ${root.text}): ${listing.reason}`);
          continue;
        }
        const children = expand(root, step, listing.entries, found, warnings);
        for (const child of children) {
          if (child.depth > limits.maxDepth) {
            depthHit = true;
            continue;
          }
          const key = `${child.dir}\0${child.at}`;
          if (seen.has(key)) continue;
          seen.add(key);
          next.push(child);
        }
      }
      level = next;
    }

    if (depthHit) warnings.push(`root ${root.text}: not searched deeper than ${limits.maxDepth} directories below "${root.prefix || '/'}" (maxDepth)`);
    if (unsearched) warnings.push(`root ${root.text}: not searched: the roots before it listed the ${limits.maxDirectories} directories allowed (maxDirectories); skills under it are not indexed`);
    else if (countHit) warnings.push(`root ${root.text}: stopped after listing ${limits.maxDirectories} directories (maxDirectories); skills in the rest are not indexed`);
  }

  const sorted = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { found: sorted, warnings };
}

/** The steps of a level that fit the directory budget; directories already listed are free. */
function admit(level: Step[], listings: ReadonlyMap<string, unknown>, maxDirectories: number): Step[] {
  const sorted = [...level].sort(byDir);
  let fresh = maxDirectories - listings.size;
  const admitted = new Set<string>();
  return sorted.filter((step) => {
    if (listings.has(step.dir) || admitted.has(step.dir)) return true;
    if (fresh <= 0) return false;
    fresh--;
    admitted.add(step.dir);
    return true;
  });
}

/** Matches the rest of the pattern against one listed directory; records skills, returns the next steps. */
function expand(root: RootPattern, step: Step, entries: readonly TreeEntry[], found: Map<string, FoundSkill>, warnings: string[]): Step[] {
  const skillFile = findSkillFile(entries)?.name;
  const dirs = entries.filter((entry) => entry.kind === 'dir');
  const next: Step[] = [];
  const down = (dir: string, at: number) => next.push({ dir, at, depth: step.depth + 1 });

  // `**` also matches zero directories, so one step may test several positions of the pattern.
  for (let at = step.at; ; at++) {
    const segment = root.rest[at];
    if (segment === undefined) {
      if (skillFile) found.set(step.dir, { dir: step.dir, path: step.dir === '' ? skillFile : `${step.dir}/${skillFile}` });
      // Under `**` most directories are only on the way to a skill; elsewhere a match is meant to be one.
      else if (!root.rest.some((part) => part.kind === 'deep')) {
        warnings.push(ruleWarning(`${step.dir || '.'}/`, { rule: 'skill-file-missing', message: `holds no ${SKILL_FILE} (root ${root.text})` }));
      }
      break;
    }
    if (segment.kind === 'literal') {
      const child = dirs.find((entry) => entry.name === segment.name);
      if (child) down(child.path, at + 1);
      break;
    }
    if (segment.kind === 'any') {
      for (const child of dirs) down(child.path, at + 1);
      break;
    }
    // A skill's own subdirectories (scripts/, references/) are its files, not more skills.
    if (!skillFile) for (const child of dirs) down(child.path, at);
  }
  return next;
}

function literalRootWarning(root: RootPattern, status: 'missing' | 'not-a-directory'): string {
  return status === 'missing'
    ? ruleWarning(root.prefix, { rule: 'skill-dir-missing', message: `not in the tree at this commit (root ${root.text})` })
    : ruleWarning(root.prefix, { rule: 'skill-dir-not-a-directory', message: `not a directory (root ${root.text})` });
}
