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
 * For a task that named its client (issue 50) the verdicts are that client's: a file it loads
 * itself is `loaded-by-client`, one Groundwork gives it `applied`, and the client's cell says why.
 * `standing` adds that cell, so a file the client now loads itself, or no longer (a `CLAUDE.md`
 * appearing beside the `AGENTS.md` Claude Code loaded), is a change, and every line says which:
 *
 *   AGENTS.md added: it applies to .; Codex loads it itself at start
 *   CLAUDE.md added: it applies to .; given by Groundwork: Codex never reads CLAUDE.md
 *   AGENTS.md is now given by Groundwork: it applies to .; Claude Code reads CLAUDE.md instead
 */
import type { RuleSet, RuleSetFile } from '../context/rule-set.ts';
import { parentOf } from '../sources/paths.ts';
import { short } from './compare.ts';
import type { Lookup } from './lookup.ts';
import type { RuleChange } from './report.ts';

/** Skills named in one `skill-root` line; the rest are counted. */
const NAMED_SKILLS = 10;

const COUNTED: ReadonlySet<string> = new Set(['applied', 'indexed', 'shadowed', 'loaded-by-client']);

/** A file is in the set when it reaches the model (or is shadowed beside one that does), or the client loads it lazily by itself. */
const counts = (file: RuleSetFile, client: string | undefined) => COUNTED.has(file.verdict) || cellOf(file, client)?.cell === 'lazy';

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
  const cell = cellOf(file, client);
  return cell ? `${file.verdict}/${cell.cell}` : file.verdict;
}

function cellOf(file: RuleSetFile, client: string | undefined) {
  return client === undefined ? undefined : file.clients?.find((candidate) => candidate.client === client);
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
function byPath(files: readonly RuleSetFile[], counted: boolean, client: string | undefined): Map<string, RuleSetFile> {
  const map = new Map<string, RuleSetFile>();
  for (const file of files) {
    if (counted && !counts(file, client)) continue;
    const known = map.get(file.path);
    if (!known || (!counts(known, client) && counts(file, client))) map.set(file.path, file);
  }
  return map;
}

async function fileChanges(provider: string, was: readonly RuleSetFile[], now: readonly RuleSetFile[], input: RuleSetDiffInput): Promise<RuleChange[]> {
  const { client } = input;
  const before = byPath(was, true, client);
  const after = byPath(now, true, client);
  const beforeAll = byPath(was, false, client);
  const afterAll = byPath(now, false, client);
  /** Why, after a line that says (`nowIs`) or does not say (`added`) that Groundwork gives it. */
  const why = (file: RuleSetFile, added = false) => whyNow(file, client, added || file.verdict !== 'applied');
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
  /** One change of `path` (whose state at the pin is `old`'s: another path for a rename). */
  const emit = (change: RuleChange['change'], path: string, line: string, from?: string, old = path) => {
    const was = before.get(old) ?? beforeAll.get(old);
    const now = after.get(path) ?? afterAll.get(path);
    const format = now?.format ?? was?.format;
    out.push({
      change,
      provider,
      path,
      ...(from === undefined ? {} : { from }),
      ...(format === undefined ? {} : { format }),
      ...(was ? { verdict: was.verdict } : {}),
      ...(now ? { currentVerdict: now.verdict } : {}),
      ...(was?.blob ? { blob: was.blob } : {}),
      ...(now?.blob ? { currentBlob: now.blob } : {}),
      line,
    });
  };
  const isDirectoryFile = (file: RuleSetFile | undefined, verdict: string) => file?.format === 'directory-file' && (file.verdict === verdict || (verdict === 'applied' && file.verdict === 'loaded-by-client'));

  // Renamed: the same blob gone from one path and new at another that was not in the tree.
  for (const path of gone) {
    const blob = before.get(path)?.blob;
    if (!blob || stillThere.get(path)?.status === 'file') continue;
    const moved = came.find((candidate) => !covered.has(candidate) && after.get(candidate)?.blob === blob && wasThere.get(candidate)?.status !== 'file');
    if (moved === undefined) continue;
    covered.add(path).add(moved);
    emit('renamed', moved, `${path} renamed to ${moved}`, path, path);
  }

  for (const path of came) {
    const file = after.get(path);
    if (!file || covered.has(path)) continue;
    if (wasThere.get(path)?.status === 'file') {
      emit('now-applies', path, `${path} ${nowIs(file, client)}: ${why(file)}`);
      continue;
    }
    // A directory's new instruction file takes the place of the one that applied there.
    const replaced = isDirectoryFile(file, 'applied') ? [...before.values()].find((old) => isDirectoryFile(old, 'applied') && parentOf(old.path) === parentOf(path) && !covered.has(old.path) && afterAll.get(old.path)?.verdict !== 'applied') : undefined;
    if (replaced) covered.add(replaced.path);
    const reason = replaced ? `it replaces ${replaced.path} for ${scopeText(file)}${clientSays(file, client, true)}` : file.verdict === 'shadowed' ? `${file.reason}, which ${file.by && after.get(file.by)?.verdict === 'loaded-by-client' ? 'the client loads itself' : 'is given'} instead` : file.verdict === 'indexed' ? `indexed (${file.reason})` : why(file, true);
    emit('added', path, `${path} added: ${reason}`, replaced?.path ?? file.by);
  }

  for (const path of gone) {
    const old = before.get(path);
    if (!old || covered.has(path)) continue;
    if (stillThere.get(path)?.status === 'file') {
      emit('no-longer-applies', path, `${path} no longer applies: ${afterAll.get(path)?.reason ?? goneWhy(old, provider, input)}`);
      continue;
    }
    // The file that takes its place in its directory, if one shadowed there applies now.
    const heir = isDirectoryFile(old, 'applied') ? [...after.values()].find((file) => isDirectoryFile(file, 'applied') && parentOf(file.path) === parentOf(path) && before.get(file.path)?.verdict === 'shadowed') : undefined;
    if (heir) covered.add(heir.path);
    emit('removed', path, heir ? `${path} deleted: ${heir.path} applies in its place for ${scopeText(heir)}` : `${path} deleted (${old.verdict === 'shadowed' ? 'it was' : 'it applied:'} ${old.reason})`, heir?.path);
  }

  // In both sets. A directory's instruction file swapped for the one that shadowed it (a settings
  // file reordering the names) is one change; otherwise what the file is to the task changed, or
  // a rule the model was not given has new content.
  for (const [path, file] of after) {
    const old = before.get(path);
    if (!old || covered.has(path)) continue;
    const swapped = old.by === undefined ? undefined : after.get(old.by);
    if (isDirectoryFile(file, 'applied') && old.verdict === 'shadowed' && old.by && !covered.has(old.by) && swapped?.verdict === 'shadowed' && swapped.by === path) {
      covered.add(old.by);
      emit('now-applies', path, `${path} now applies: it replaces ${old.by} for ${scopeText(file)}`, old.by);
    } else if (standing(old, client) !== standing(file, client)) {
      const gained = file.verdict === 'applied' || file.verdict === 'loaded-by-client' || (file.verdict === 'indexed' && old.verdict !== 'applied');
      emit(gained ? 'now-applies' : 'no-longer-applies', path, file.verdict === 'shadowed' ? `${path} no longer applies: ${file.reason}` : `${path} ${nowIs(file, client)}: ${why(file)}`, file.by);
    } else if (old.blob && file.blob && old.blob !== file.blob && !input.given.has(path)) {
      const what = file.verdict === 'loaded-by-client' ? file.reason : `it ${nowIs(file, client).replace('now ', '')}: ${file.reason}`;
      emit('changed', path, `${path} changed (blob ${short(old.blob)} -> ${short(file.blob)}); ${what}`);
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const NOW_IS: Readonly<Record<string, string>> = { applied: 'now applies', indexed: 'is now indexed', shadowed: 'is now shadowed', 'loaded-by-client': 'is now loaded by the client itself' };

function nowIs(file: RuleSetFile, client: string | undefined): string {
  return client !== undefined && file.verdict === 'applied' ? 'is now given by Groundwork' : (NOW_IS[file.verdict] ?? `is now ${file.verdict}`);
}

/**
 * What the task's client makes of the file, after `; `: it loads it itself (the verdict's reason),
 * or Groundwork gives it and why (`prefixed`: "given by Groundwork: …", where the line does not say
 * so already). Nothing without a client or a cell.
 */
function clientSays(file: RuleSetFile, client: string | undefined, prefixed: boolean): string {
  const cell = cellOf(file, client);
  if (!cell) return '';
  if (file.verdict === 'loaded-by-client') return `; ${file.reason}`;
  if (cell.cell === 'given' || cell.cell === 'cut') return `; ${prefixed ? 'given by Groundwork: ' : ''}${cell.cell === 'cut' ? 'the client cuts it ' : ''}${cell.detail}`;
  return cell.cell === 'lazy' ? `; ${file.reason}` : '';
}

function scopeText(file: RuleSetFile): string {
  const scope = file.scope ?? [];
  if (scope.length === 0) return parentOf(file.path) || '.';
  return scope.length > 3 ? `${scope.slice(0, 3).join(', ')} and ${scope.length - 3} more` : scope.join(', ');
}

/** Why a file applies (or is what it is) now: a directory file names the focus it serves; then what the client makes of it. */
function whyNow(file: RuleSetFile, client: string | undefined, prefixed: boolean): string {
  const says = clientSays(file, client, prefixed);
  if (file.format === 'directory-file' && (file.verdict === 'applied' || file.verdict === 'loaded-by-client')) return `it applies to ${scopeText(file)}${says}`;
  // The complement already added the client's why to a given file's reason, and a loaded or lazy file's reason is the client's.
  const own = says === '' ? file.reason : file.verdict === 'applied' ? file.reason.replace(`; ${cellOf(file, client)?.detail ?? ''}`, '') : '';
  return own === '' ? says.slice(2) : `${own}${says}`;
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
