/**
 * @module test/support/git-fixtures
 * Real git repositories built with the git CLI in temporary directories, for Node tests and for
 * the smart-HTTP global setup. Runs in Node only (child_process), never inside workerd.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The user's own git config (signing, hooks, default branch) must not leak into fixtures. */
const GIT_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.test',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.test',
  GIT_TERMINAL_PROMPT: '0',
};

/**
 * The parent environment minus its GIT_* variables (a test run inside a git hook inherits
 * GIT_DIR), plus fixed identity and config isolation. Typed as ProcessEnv because the Workers
 * types make that interface demand the Worker's vars.
 */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: tmpdir() };
  for (const key of Object.keys(env)) if (key.startsWith('GIT_')) delete env[key];
  return Object.assign(env, GIT_ENV);
}

/** Runs git in `cwd` and returns trimmed stdout; throws with git's stderr on failure. */
export function runGit(cwd: string, args: string[], input?: string | Uint8Array): string {
  // Listings of the bench's large repository pass Node's default 1 MiB output buffer.
  return execFileSync('git', args, { cwd, env: gitEnv(), input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 }).trim();
}

export interface GitFixture {
  /** Absolute path of the working tree (or of the repository itself when bare). */
  dir: string;
  git(...args: string[]): string;
  /** Writes a file in the working tree, creating parent directories. Does not stage it. */
  write(path: string, content: string | Uint8Array): void;
  symlink(target: string, path: string): void;
  /** Stages everything (including deletions) and commits; returns the new commit sha. */
  commitAll(message: string): string;
  remove(): void;
}

export function createGitRepo(options: { branch?: string; parent?: string } = {}): GitFixture {
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'groundwork-git-'));
  runGit(dir, ['init', '--quiet', `--initial-branch=${options.branch ?? 'main'}`]);
  runGit(dir, ['config', 'core.symlinks', 'true']);
  return fixtureAt(dir);
}

function fixtureAt(dir: string): GitFixture {
  const git = (...args: string[]): string => runGit(dir, args);
  return {
    dir,
    git,
    write(path, content) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    },
    symlink(target, path) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      symlinkSync(target, join(dir, path));
    },
    commitAll(message) {
      git('add', '--all');
      git('commit', '--quiet', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Bytes that deflate cannot shrink, so a pack holding them is at least this large. */
export function incompressibleBytes(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    // xorshift32: deterministic, so fixture shas are reproducible.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/**
 * The repository most tests read: nested directories, a symlinked AGENTS.md, a link that escapes,
 * a dangling link, a binary file, and an annotated plus a lightweight tag on the first commit.
 */
export function buildSampleRepo(fixture: GitFixture): { first: string; head: string } {
  fixture.write('docs/AGENTS.md', '# Agents\n\nRun `npm test` before committing.\n');
  fixture.symlink('docs/AGENTS.md', 'AGENTS.md');
  fixture.write('src/app/deep/nested/file.ts', 'export const deep = true;\n');
  fixture.write('README.md', 'Sample repository\n');
  const first = fixture.commitAll('first');
  fixture.git('tag', '-a', 'v1.0', '-m', 'release 1.0');
  fixture.git('tag', 'light', first);
  fixture.write('skills/review/SKILL.md', '---\nname: review\n---\nReview carefully.\n');
  fixture.symlink('../../outside.txt', 'skills/escape.md');
  fixture.symlink('missing.md', 'dangling.md');
  fixture.symlink('docs', 'docs-link');
  fixture.write('assets/logo.bin', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
  fixture.write('README.md', 'Sample repository, second edition\n');
  const head = fixture.commitAll('second');
  return { first, head };
}

/**
 * Two repositories for provider settings: `opencode` keeps its skills where opencode does and has
 * no settings file; `configured` commits a `.groundwork.yml` that names GEMINI.md and
 * `tools/skills/*`, and also has AGENTS.md and a skill in `.agents/skills` that it redirects away from.
 */
export function buildSettingsRepos(opencode: GitFixture, configured: GitFixture): { opencode: { head: string }; configured: { head: string } } {
  opencode.write('AGENTS.md', '# Rules\n\nKeep the worker small.\n');
  opencode.write('.opencode/skills/release/SKILL.md', '---\nname: release\ndescription: Cut a release of the worker.\n---\nRun the release script, then tag.\n');
  configured.write('GEMINI.md', '# Gemini rules\n\nPrefer small diffs.\n');
  configured.write('AGENTS.md', '# Agents rules\n\nNot the file this repository uses.\n');
  configured.write('tools/skills/bench/SKILL.md', '---\nname: bench\ndescription: Run the benchmarks.\n---\nnpm run bench\n');
  configured.write('.agents/skills/lint/SKILL.md', '---\nname: lint\ndescription: Lint the code.\n---\nnpm run lint\n');
  configured.write('.groundwork.yml', '# Where this repository keeps its rules and skills.\nproviders:\n  rules:\n    filenames: [GEMINI.md]\n  skills:\n    roots: ["tools/skills/*"]\n');
  return { opencode: { head: opencode.commitAll('opencode skills') }, configured: { head: configured.commitAll('configured') } };
}

/** A bare copy of `fixture` under `root/name`, serving any reachable commit by sha. */
export function cloneBare(fixture: GitFixture, root: string, name: string): string {
  const target = join(root, name);
  runGit(root, ['clone', '--quiet', '--bare', fixture.dir, target]);
  // GitHub and GitLab allow fetching a reachable commit that is no longer a branch tip.
  runGit(target, ['config', 'uploadpack.allowReachableSHA1InWant', 'true']);
  return target;
}
