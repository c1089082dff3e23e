/**
 * CLI startup (issue 16), whole process, median of 5, measured beside baselines in the same run:
 * - `groundwork --help` against `node -e 0` (the floor any Node CLI pays); goal under 120 ms.
 * - `groundwork context --json` on a one-file repository against `node -e 0`; goal under 100 ms
 *   (issue 28).
 *   The same run with the code cache off (`GROUNDWORK_CODE_CACHE=off`, cli/code-cache) is beside it:
 *   what compiling the command's functions again costs each run.
 * - a full `groundwork context --json` on cloudflare/workers-sdk (a ~200 MB pack) against git
 *   doing the same reads (resolve HEAD, list the root, read AGENTS.md); goal under 150 ms (issue 28).
 *   The repository is the snapshot the search tool's `fetch` brings (github:cloudflare/workers-sdk),
 *   or any clone named by GROUNDWORK_BENCH_WORKERS_SDK; without one the case is skipped, saying so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = 5;
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const WORKERS_SDK = process.env.GROUNDWORK_BENCH_WORKERS_SDK ?? '/work/.mirror/cloudflare+workers-sdk/repo';

export async function benchStartup(): Promise<string[]> {
  if (!existsSync(CLI)) return [`skipped: ${CLI} is missing; run \`npm run build\``];
  const floor = median(() => run(process.execPath, ['-e', '0']));
  const help = median(() => run(process.execPath, [CLI, '--help']));
  const lines = [`--help ${fmt(help)} ms (goal < 120), node -e 0 ${fmt(floor)} ms, --help / node -e 0 = ${(help / floor).toFixed(2)}`];
  const oneFile = oneFileRepository();
  try {
    const small = median(() => run(process.execPath, [CLI, 'context', '--repo', oneFile, '--json']));
    const uncached = median(() => run(process.execPath, [CLI, 'context', '--repo', oneFile, '--json'], { GROUNDWORK_CODE_CACHE: 'off' }));
    lines.push(`one-file repository context --json ${fmt(small)} ms (goal < 100), node -e 0 ${fmt(floor)} ms, context / node -e 0 = ${(small / floor).toFixed(2)}; code cache off ${fmt(uncached)} ms (${(small / uncached).toFixed(2)}x)`);
  } finally {
    rmSync(oneFile, { recursive: true, force: true });
  }
  if (!existsSync(WORKERS_SDK)) {
    lines.push(`workers-sdk: skipped: no repository at ${WORKERS_SDK} (fetch github:cloudflare/workers-sdk with the search tool, or set GROUNDWORK_BENCH_WORKERS_SDK to a clone)`);
    return lines;
  }
  const full = median(() => run(process.execPath, [CLI, 'context', '--repo', WORKERS_SDK, '--json']));
  const git = median(() => gitSameReads(WORKERS_SDK));
  lines.push(`workers-sdk full run ${fmt(full)} ms (goal < 150), node -e 0 ${fmt(floor)} ms, git doing the same reads ${fmt(git)} ms, groundwork / git = ${(full / git).toFixed(1)}`);
  return lines;
}

/** A git repository of one commit holding one AGENTS.md: what every run pays but the repository. */
function oneFileRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'groundwork-bench-one-file-'));
  writeFileSync(join(dir, 'AGENTS.md'), '# Rules\n\nRun the tests before you commit.\n');
  const git = (...args: string[]) => {
    const child = spawnSync('git', ['-C', dir, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (child.status !== 0) throw new Error(`git ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('add', 'AGENTS.md');
  git('commit', '-q', '-m', 'one file');
  return dir;
}

/** What `context` reads there with the git CLI: resolve HEAD, list the root, read the root AGENTS.md. */
function gitSameReads(repo: string): number {
  const git = (args: string[]): number => run('git', ['--git-dir', discoverGitDir(repo), ...args]);
  return git(['rev-parse', 'HEAD']) + git(['ls-tree', 'HEAD']) + git(['ls-tree', 'HEAD:.agents/skills']) + git(['cat-file', '-p', 'HEAD:AGENTS.md']);
}

function discoverGitDir(repo: string): string {
  return existsSync(`${repo}/.git`) ? `${repo}/.git` : repo;
}

/** Wall time of one whole process, in ms; a failure is a failure, not a number. */
function run(command: string, args: string[], env: Record<string, string> = {}): number {
  const started = performance.now();
  const child = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });
  const ms = performance.now() - started;
  // `git ls-tree` of a missing path exits 128; the other commands must succeed.
  if (child.status !== 0 && !(command === 'git' && args.includes('HEAD:.agents/skills'))) throw new Error(`${command} ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return ms;
}

function median(measure: () => number): number {
  measure(); // warm the page cache, Node's compile cache and the CLI's code cache
  const times = Array.from({ length: RUNS }, measure).sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)] ?? NaN;
}

function fmt(ms: number): string {
  return ms.toFixed(0);
}
