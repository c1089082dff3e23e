/**
 * @module clients/profile
 * A client profile: what one coding-agent client loads by itself, as one small pure function over
 * the rule files a task's commit holds, each answer citing a fact (clients/facts/: what it rests
 * on, with its source and the client version it was checked for). Profiles import nothing but context/ types, so they run in
 * the Worker, the Task object and the CLI alike, and a client's change is one module and its
 * cited tests.
 *
 * Where a fact is unconfirmed or third-party only, the profile takes the conservative reading:
 * it does not claim the client loads a file it may not load, so Groundwork gives that file and
 * the verdict says why.
 */
import type { ClientName } from '../context/client.ts';
import type { ClientLoad, FoundRuleFile, LoadContext } from '../context/client-load.ts';

/** How a fact was established: first-party code, tests or docs; a third party only; or not at all. */
export type Confidence = 'code' | 'test' | 'doc' | '3p' | 'unconfirmed';

export interface Fact {
  /** Stable id the loads cite, e.g. `codex.chain`. */
  id: string;
  /** What the client does, in one sentence. */
  says: string;
  /** Where it was read: repository@commit:path, a docs URL, an issue. */
  source: string;
  /** The client version (or release) it was checked for. */
  checked: string;
  confidence: Confidence;
  /** The first version it holds for, when it changed; older versions do not do it. */
  since?: string;
}

export interface ClientProfile {
  name: ClientName;
  /** The newest client version its facts (clients/facts/) were checked for; an unversioned client is taken to be this one. */
  checked: string;
  /** Instruction file names it reads in a directory, so the provider looks for them on the chains. */
  directoryNames: readonly string[];
  /** How it loads each file (never an import: see `imports`), in the same order: one answer per file. */
  loads(files: readonly FoundRuleFile[], context: LoadContext): ClientLoad[];
  /**
   * How it loads a file that a file it loads as `importer` imports (`file.importedBy`,
   * `file.depth`, `file.reference`): a client that follows imports loads it with its importer.
   */
  imports(file: FoundRuleFile, importer: ClientLoad, context: LoadContext): ClientLoad;
}

/** Answers, short to write: each names the fact it rests on. */
export const start = (fact: string, note?: string): ClientLoad => (note === undefined ? { load: 'start', fact } : { load: 'start', fact, note });
export const lazy = (when: string, fact: string): ClientLoad => ({ load: 'lazy', when, fact });
export const never = (why: string, fact: string): ClientLoad => ({ load: 'never', why, fact });

/** Numeric parts of a version (`2.1.332-beta` -> [2, 1, 332]). */
function parts(version: string): number[] {
  return (version.split(/[-+]/)[0] ?? '').split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether `version` is `since` or later; an unnamed version is the profile's checked one, so it is. */
export function atLeast(version: string | undefined, since: string): boolean {
  if (version === undefined) return true;
  const a = parts(version);
  const b = parts(since);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** The file name of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether `dir` is on the chain from the root down to `cwd` (both included). */
export function onChain(dir: string, cwd: string): boolean {
  return dir === '' || cwd === dir || cwd.startsWith(`${dir}/`);
}

/** Whether `dir` is strictly below `cwd` (a subdirectory the client starts above). */
export function below(dir: string, cwd: string): boolean {
  return dir !== cwd && (cwd === '' || dir.startsWith(`${cwd}/`));
}

/** Whether `path` lies inside `dir` (`''` holds everything). */
export function inside(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/** `packages/web` or `the repository root`. */
export function dirLabel(dir: string): string {
  return dir === '' ? 'the repository root' : dir;
}
