/**
 * A large real repository for the local git source benchmark, built offline: source trees already
 * on disk (this project's node_modules, plus the global npm and CMake's modules where the machine
 * has them) committed with the rules chain and skills, then packed by `git gc` as in a clone.
 */
import { cpSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGitRepo, type GitFixture } from '../test/support/git-fixtures.ts';
import { repoShape, writeRepoShape, type RepoShape } from './repo-shape.ts';

/** Files above this are left out: they cost pack time and are never read by the benchmark. */
const MAX_FILE_BYTES = 1024 * 1024;

export interface LargeRepo {
  dir: string;
  shape: RepoShape;
  /** What the commit holds, as `git ls-tree -r` counts it. */
  files: number;
  dirs: number;
  packBytes: number;
  /** Objects left outside a pack after `git gc`; 0 as in a fresh clone. */
  looseObjects: number;
  /** Where the trees came from, for the report. */
  origins: string[];
  buildMs: number;
  remove(): void;
}

export function buildLargeRepo(): LargeRepo {
  const started = performance.now();
  const repo = createGitRepo();
  try {
    const origins: string[] = [];
    const nodeModules = fileURLToPath(new URL('../node_modules', import.meta.url));
    for (const [from, to] of sourceTrees(nodeModules)) {
      if (!existsSync(from)) continue;
      cpSync(from, join(repo.dir, to), { recursive: true, verbatimSymlinks: true, filter: keep });
      origins.push(from === nodeModules ? "this project's node_modules" : from);
    }
    // No background `gc --auto` after the commit: it would race the explicit gc below.
    repo.git('config', 'gc.auto', '0');
    const shape = repoShape('packages/app/src/server/api');
    writeRepoShape(repo, shape);
    // Copied packages carry their own .gitignore files; a real repository would have committed these trees.
    repo.git('add', '--all', '--force');
    repo.git('commit', '--quiet', '-m', 'large repository');
    repo.git('gc', '--quiet');
    return { dir: repo.dir, shape, ...measure(repo), origins, buildMs: performance.now() - started, remove: repo.remove };
  } catch (error) {
    repo.remove();
    throw error;
  }
}

function sourceTrees(nodeModules: string): Array<[string, string]> {
  const trees: Array<[string, string]> = [[nodeModules, 'packages'], ['/usr/lib/node_modules/npm', 'vendor/npm']];
  const cmake = existsSync('/usr/share') ? readdirSync('/usr/share').filter((name) => /^cmake-\d/.test(name)).sort() : [];
  const newest = cmake.at(-1);
  if (newest !== undefined) trees.push([join('/usr/share', newest), 'vendor/cmake']);
  return trees;
}

function keep(source: string): boolean {
  if (basename(source) === '.git') return false;
  const stat = lstatSync(source);
  return !stat.isFile() || stat.size <= MAX_FILE_BYTES;
}

function measure(repo: GitFixture): { files: number; dirs: number; packBytes: number; looseObjects: number } {
  const count = (out: string): number => (out === '' ? 0 : out.split('\n').length);
  const files = count(repo.git('ls-tree', '-r', '--name-only', 'HEAD'));
  const dirs = count(repo.git('ls-tree', '-r', '-d', '--name-only', 'HEAD'));
  const objects = repo.git('count-objects', '-v');
  const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(objects)?.[1] ?? NaN);
  return { files, dirs, packBytes: field('size-pack') * 1024, looseObjects: field('count') };
}
