/**
 * @module freshness/rule-set-diff
 * Two rule sets of one task (context/rule-set), at the commit compared from and at the new head,
 * as changes a reader can act on, one line each with its reason:
 *
 *   src/AGENTS.override.md added: it replaces src/AGENTS.md for src
 *   CLAUDE.md added: shadowed by AGENTS.md in ., which is given instead
 *   .github/instructions/api.instructions.md now applies: applyTo "src/**" matched src/app.ts
 *   docs/style.md no longer applies: nothing the rules read imports it now
 *   old/AGENTS.md renamed to new/AGENTS.md
 *   .groundwork.yml changed what rules reads: instruction file names AGENTS.md -> GEMINI.md, AGENTS.md
 *   skills root .claude/skills appeared: review, deploy
 *
 * A file counts when it applies, is indexed or is shadowed beside one that applies; one that
 * applies to nothing the task touches is no part of the set (a new rule for `docs/**` does not make
 * a task in `src` stale). Whether a file is still in the tree is asked of the listings (`lookup`),
 * which the two sides' snapshots already hold. Content changes of files the model was given are
 * the sources' comparison (compare.ts), not repeated here; skills inside a root the skills index
 * watches are compared as the index, so only a root that appeared is a rule-set change.
 *
 * The client dimension (issue 50): `standing` is the one place that says what a file is to the
 * task; with per-client cells on the files, it adds the task's client's cell, so a file the
 * client now loads itself, or no longer, is a change.
 */
import type { RuleSet, RuleSetFile } from '../context/rule-set.ts';
import { parentOf } from '../sources/paths.ts';
import { short } from './compare.ts';
import type { Lookup } from './lookup.ts';
import type { RuleChange } from './report.ts';

/** Skills named in one `skill-root` line; the rest are counted. */
const NAMED_SKILLS = 10;

const COUNTED: ReadonlySet<string> = new Set(['applied', 'indexed', 'shadowed', 'loaded-by-client']);

export interface RuleSetDiffInput {
  before: RuleSet;
  after: RuleSet;
  /** A path at one side's commit, from listings. */
  lookup(side: 'before' | 'after', path: string): Promise<Lookup>;
  /** Paths whose content the sources' comparison already reports (files the model was given). */
  given: ReadonlySet<string>;
  /** Skills roots the skills index of the report watches (today's comparison covers what is under them). */
  watchedSkillRoots: readonly string[];
  /** The task's client, when it named one (issue 50). */
  client?: string;
}

export async function diffRuleSets(input: RuleSetDiffInput): Promise<RuleChange[]> {
  const changes: RuleChange[] = [...settingsChanges(input.before, input.after)];
  const names = [...new Set([...input.before.providers, ...input.after.providers].map((set) => set.provider))];
  for (const provider of names) {
    const was = input.before.providers.find((set) => set.provider === provider)?.files ?? [];
    const now = input.after.providers.find((set) => set.provider === provider)?.files ?? [];
    const skills = (files: readonly RuleSetFile[]) => files.filter((file) => file.format === 'skill');
    changes.push(...(await fileChanges(provider, was.filter((file) => file.format !== 'skill'), now.filter((file) => file.format !== 'skill'), input)));
    changes.push(...skillRootChanges(provider, skills(was), skills(now), input.watchedSkillRoots));
  }
  return changes;
}

/** What a file is to the task: its verdict, and with a client named, that client's cell (issue 50). */
export function standing(file: RuleSetFile, client: string | undefined): string {
  const cell = client === undefined ? undefined : file.clients?.find((candidate) => candidate.client === client);
  return cell ? `${file.verdict}/${cell.cell}` : file.verdict;
}

function settingsChanges(before: RuleSet, after: RuleSet): RuleChange[] {
  const changes: RuleChange[] = [];
  for (const now of after.providers) {
    const was = before.providers.find((set) => set.provider === now.provider);
    if (!was || sameList(was.reads, now.reads)) continue;
    const gone = was.reads.filter((read) => !now.reads.includes(read));
    const came = now.reads.filter((read) => !was.reads.includes(read));
    const file = after.settings ?? before.settings ?? '.groundwork.yml';
    const path = file.replace(/@[0-9a-f]+$/, '');
    const what = `${gone.join('; ') || 'the defaults'} -> ${came.join('; ') || 'the defaults'}`;
    changes.push({ change: 'settings', provider: now.provider, path, line: `${path} changed what ${now.provider} reads: ${what}` });
  }
  return changes;
}

/** The first counted entry of each path (a path may have several verdicts: an import's problems name their importer). */
function byPath(files: readonly RuleSetFile[], counted: boolean): Map<string, RuleSetFile> {
  const map = new Map<string, RuleSetFile>();
  for (const file of files) {
    if (counted && !COUNTED.has(file.verdict)) continue;
    const known = map.get(file.path);
    if (!known || (!COUNTED.has(known.verdict) && COUNTED.has(file.verdict))) map.set(file.path, file);
  }
  return map;
}

async function fileChanges(provider: string, was: readonly RuleSetFile[], now: readonly RuleSetFile[], input: RuleSetDiffInput): Promise<RuleChange[]> {
  const before = byPath(was, true);
  const after = byPath(now, true);
  const beforeAll = byPath(was, false);
  const afterAll = byPath(now, false);
  const gone = [...before.keys()].filter((path) => !after.has(path));
  const came = [...after.keys()].filter((path) => !before.has(path));
  const [goneNow, cameThen] = await Promise.all([
    Promise.all(gone.map((path) => input.lookup('after', path))),
    Promise.all(came.map((path) => (beforeAll.has(path) ? Promise.resolve<Lookup>({ status: 'file', blob: beforeAll.get(path)?.blob ?? '' }) : input.lookup('before', path)))),
  ]);
  const stillThere = new Map(gone.map((path, i) => [path, goneNow[i]]));
  const wasThere = new Map(came.map((path, i) => [path, cameThen[i]]));
  for (const [path, lookup] of [...stillThere, ...wasThere]) if (lookup?.status === 'failed') throw new Error(`could not look up ${path}: ${lookup.reason}`);

  const out: RuleChange[] = [];
  const covered = new Set<string>();
  const base = (path: string) => ({ provider, path, ...(after.get(path)?.format ?? before.get(path)?.format ? { format: after.get(path)?.format ?? before.get(path)?.format } : {}) });
  const verdicts = (path: string) => ({
    ...(before.get(path) ?? beforeAll.get(path) ? { verdict: (before.get(path) ?? beforeAll.get(path))?.verdict } : {}),
    ...(after.get(path) ?? afterAll.get(path) ? { currentVerdict: (after.get(path) ?? afterAll.get(path))?.verdict } : {}),
  });
  const blobs = (from: RuleSetFile | undefined, to: RuleSetFile | undefined) => ({ ...(from?.blob ? { blob: from.blob } : {}), ...(to?.blob ? { currentBlob: to.blob } : {}) });

  // Renamed: the same blob gone from one path and new at another that was not in the tree.
  for (const path of gone) {
    const old = before.get(path);
    if (!old?.blob || stillThere.get(path)?.status === 'file') continue;
    const moved = came.find((candidate) => !covered.has(candidate) && after.get(candidate)?.blob === old.blob && wasThere.get(candidate)?.status !== 'file');
    if (moved === undefined) continue;
    covered.add(path).add(moved);
    out.push({ change: 'renamed', ...base(moved), from: path, ...verdicts(moved), verdict: old.verdict, ...blobs(old, after.get(moved)), line: `${path} renamed to ${moved}` });
  }

  for (const path of came) {
    if (covered.has(path)) continue;
    const file = after.get(path);
    if (!file) continue;
    const existed = wasThere.get(path)?.status === 'file';
    if (existed) {
      out.push({ change: 'now-applies', ...base(path), ...verdicts(path), ...blobs(beforeAll.get(path), file), line: `${path} ${nowIs(file)}: ${whyNow(file)}` });
      continue;
    }
    // A directory's new instruction file takes the place of the one that applied there.
    const replaced = file.verdict === 'applied' && file.format === 'directory-file' ? [...before.values()].find((old) => old.format === 'directory-file' && old.verdict === 'applied' && parentOf(old.path) === parentOf(path) && old.path !== path) : undefined;
    if (replaced && !covered.has(replaced.path) && afterAll.get(replaced.path)?.verdict !== 'applied') {
      covered.add(replaced.path);
      out.push({ change: 'added', ...base(path), from: replaced.path, ...verdicts(path), ...blobs(undefined, file), line: `${path} added: it replaces ${replaced.path} for ${scopeText(file)}` });
      continue;
    }
    out.push({ change: 'added', ...base(path), ...(file.by ? { from: file.by } : {}), ...verdicts(path), ...blobs(undefined, file), line: `${path} added: ${addedWhy(file)}` });
  }

  for (const path of gone) {
    if (covered.has(path)) continue;
    const old = before.get(path);
    if (!old) continue;
    const there = stillThere.get(path)?.status === 'file';
    if (!there) {
      // The file that takes its place in its directory, if one applies there now.
      const heir = old.verdict === 'applied' && old.format === 'directory-file' ? [...after.values()].find((file) => file.format === 'directory-file' && file.verdict === 'applied' && parentOf(file.path) === parentOf(path) && before.get(file.path)?.verdict === 'shadowed') : undefined;
      if (heir) covered.add(heir.path);
      const line = heir ? `${path} deleted: ${heir.path} applies in its place for ${scopeText(heir)}` : `${path} deleted (${old.verdict === 'shadowed' ? `it was ${old.reason}` : `it applied: ${old.reason}`})`;
      out.push({ change: 'removed', ...base(path), ...(heir ? { from: heir.path } : {}), ...verdicts(path), ...blobs(old, undefined), line });
      continue;
    }
    const nowFile = afterAll.get(path);
    out.push({ change: 'no-longer-applies', ...base(path), ...verdicts(path), ...blobs(old, nowFile), line: `${path} no longer applies: ${nowFile?.reason ?? goneWhy(old, provider, input)}` });
  }

  // A directory's instruction file swapped for another that was shadowed there (a settings file reordering the names): one change.
  for (const [path, file] of after) {
    const old = before.get(path);
    if (!old || covered.has(path) || old.verdict !== 'shadowed' || file.verdict !== 'applied' || file.format !== 'directory-file') continue;
    const swapped = after.get(old.by ?? '');
    if (!old.by || covered.has(old.by) || swapped?.verdict !== 'shadowed' || swapped.by !== path) continue;
    covered.add(path).add(old.by);
    out.push({ change: 'now-applies', ...base(path), from: old.by, ...verdicts(path), ...blobs(old, file), line: `${path} now applies: it replaces ${old.by} for ${scopeText(file)}` });
  }

  // In both sets: what the file is to the task changed, or a rule the model was not given changed.
  for (const [path, file] of after) {
    const old = before.get(path);
    if (!old || covered.has(path)) continue;
    if (standing(old, input.client) !== standing(file, input.client)) {
      const line = file.verdict === 'shadowed' ? `${path} no longer applies: ${file.reason}` : `${path} ${nowIs(file)}: ${whyNow(file)}`;
      const change = file.verdict === 'applied' || (file.verdict === 'indexed' && old.verdict !== 'applied') ? 'now-applies' : 'no-longer-applies';
      out.push({ change, ...base(path), ...(file.by ? { from: file.by } : {}), ...verdicts(path), ...blobs(old, file), line });
    } else if (old.blob !== undefined && file.blob !== undefined && old.blob !== file.blob && !input.given.has(path)) {
      out.push({ change: 'changed', ...base(path), ...verdicts(path), ...blobs(old, file), line: `${path} changed (blob ${short(old.blob)} -> ${short(file.blob)}); it ${file.verdict === 'indexed' ? 'is indexed' : file.verdict === 'shadowed' ? 'is shadowed' : 'applies'}: ${file.reason}` });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function nowIs(file: RuleSetFile): string {
  switch (file.verdict) {
    case 'applied':
      return 'now applies';
    case 'indexed':
      return 'is now indexed';
    case 'shadowed':
      return 'is now shadowed';
    default:
      return `is now ${file.verdict}`;
  }
}

function scopeText(file: RuleSetFile): string {
  const scope = file.scope ?? [];
  if (scope.length === 0) return parentOf(file.path) || '.';
  return scope.length > 3 ? `${scope.slice(0, 3).join(', ')} and ${scope.length - 3} more` : scope.join(', ');
}

function addedWhy(file: RuleSetFile): string {
  if (file.verdict === 'shadowed') return `${file.reason}, which is given instead`;
  return file.verdict === 'indexed' ? `indexed (${file.reason})` : whyNow(file);
}

/** Why a file applies (or is what it is) now: a directory file names the focus it serves. */
function whyNow(file: RuleSetFile): string {
  return file.format === 'directory-file' && file.verdict === 'applied' ? `it applies to ${scopeText(file)}` : file.reason;
}

/** Why a file that is still in the tree left the set, when the new side has no verdict for it. */
function goneWhy(old: RuleSetFile, provider: string, input: RuleSetDiffInput): string {
  if (old.format === 'import') return `nothing the rules read imports it now (it was ${old.reason})`;
  const reads = input.after.providers.find((set) => set.provider === provider)?.reads ?? [];
  if (old.format === 'directory-file') return `its name is not read at ${short(input.after.commit)}${reads.length > 0 ? ` (${reads.join('; ')})` : ''}`;
  return `not found as a rule at ${short(input.after.commit)}`;
}

function skillRootChanges(provider: string, was: readonly RuleSetFile[], now: readonly RuleSetFile[], watched: readonly string[]): RuleChange[] {
  const rootOf = (file: RuleSetFile) => file.scope?.[0] ?? parentOf(parentOf(file.path));
  const before = new Set(was.map(rootOf));
  const covered = (root: string) => watched.some((path) => path === '' || root === path || root.startsWith(`${path}/`));
  const appeared = new Map<string, string[]>();
  for (const file of now) {
    const root = rootOf(file);
    if (before.has(root) || covered(root)) continue;
    appeared.set(root, [...(appeared.get(root) ?? []), parentOf(file.path).split('/').at(-1) ?? file.path]);
  }
  return [...appeared].sort(([a], [b]) => (a < b ? -1 : 1)).map(([root, skills]) => {
    const named = skills.slice(0, NAMED_SKILLS).join(', ');
    const more = skills.length > NAMED_SKILLS ? ` and ${skills.length - NAMED_SKILLS} more` : '';
    return { change: 'skill-root', provider, path: root, line: `skills root ${root || '.'} appeared: ${skills.length === 1 ? 'skill' : 'skills'} ${named}${more}` };
  });
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
