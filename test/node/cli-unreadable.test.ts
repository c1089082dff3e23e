/**
 * Every way a local repository can be unreadable, built by git in setup: a shallow clone asked
 * for a commit past its edge, a pack cut short, an object deleted. Each command (`context`,
 * `freshness`, `run`, and the shipped `dist/cli.js`) answers with the documented exit code (1)
 * and one line saying what is wrong and what to do: never a context whose rules "failed", never
 * "nothing changed", never a stack trace, and `run` never retries what cannot change. (A file's
 * content missing is not unreadable for `run`, which serves the rest: test/node/run-partial.test.ts.)
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFreshnessCommand } from '../../src/cli/freshness-command.ts';
import { runRunCommand } from '../../src/cli/run/run-command.ts';
import { createGitRepo, runGit, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI, runCli } from './cli-support.ts';

async function freshness(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runFreshnessCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runRunCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** One line on stderr, nothing on stdout, no stack trace. */
function oneClearLine(result: { stdout: string; stderr: string }, ...phrases: string[]): void {
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |Error:|node:internal/);
  for (const phrase of phrases) expect(result.stderr).toContain(phrase);
}

describe('unreadable repositories', () => {
  let origin: GitFixture;
  let first: string;
  let head: string;
  const made: string[] = [];
  const clone = (name: string, ...args: string[]): string => {
    const dir = `${origin.dir}-${name}`;
    runGit(origin.dir, ['clone', '--quiet', ...args, `file://${origin.dir}`, dir]);
    made.push(dir);
    return dir;
  };
  let shallow: string;
  let truncated: string;
  let missing: string;
  let missingBlob: string;
  let missingTree: string;
  let missingTreeId: string;

  beforeAll(() => {
    origin = createGitRepo();
    origin.write('AGENTS.md', 'Root rules.\n');
    origin.write('.agents/skills/lint/SKILL.md', '---\nname: lint\ndescription: Lint it.\n---\nRun the linter.\n');
    first = origin.commitAll('first');
    origin.write('AGENTS.md', 'Root rules, second edition.\n');
    head = origin.commitAll('second');

    shallow = clone('shallow', '--depth', '1');

    truncated = clone('truncated', '--no-local');
    runGit(truncated, ['repack', '-adq']);
    const packDir = join(truncated, '.git', 'objects', 'pack');
    const pack = join(packDir, readdirSync(packDir).find((name) => name.endsWith('.pack')) ?? '');
    truncateSync(pack, Math.floor(statSync(pack).size / 2));

    // Every object loose, then one blob of the pinned commit deleted.
    missing = clone('missing', '--no-local');
    const packs = join(missing, '.git', 'objects', 'pack');
    const packed = readdirSync(packs).map((name) => join(packs, name));
    const bytes = readFileSync(packed.find((path) => path.endsWith('.pack')) ?? '');
    for (const path of packed) rmSync(path, { force: true });
    runGit(missing, ['unpack-objects', '-q'], bytes);
    missingBlob = runGit(missing, ['rev-parse', 'HEAD:.agents/skills/lint/SKILL.md']);
    rmSync(join(missing, '.git', 'objects', missingBlob.slice(0, 2), missingBlob.slice(2)));

    // The same, with a tree of the pinned commit deleted instead.
    missingTree = clone('missing-tree', '--no-local');
    const treePacks = join(missingTree, '.git', 'objects', 'pack');
    for (const name of readdirSync(treePacks)) rmSync(join(treePacks, name), { force: true });
    runGit(missingTree, ['unpack-objects', '-q'], bytes);
    missingTreeId = runGit(missingTree, ['rev-parse', 'HEAD:.agents/skills/lint']);
    rmSync(join(missingTree, '.git', 'objects', missingTreeId.slice(0, 2), missingTreeId.slice(2)));
  });
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
    origin.remove();
  });

  it('context: a commit past a shallow clone’s edge is exit 1 naming git fetch --unshallow', async () => {
    const result = await runCli(['--repo', shallow, '--ref', 'HEAD~1']);
    expect(result.code).toBe(1);
    oneClearLine(result, `commit ${first} is not in this shallow clone`, `git -C ${shallow} fetch --unshallow`);
    // The commit it has reads as ever.
    expect((await runCli(['--repo', shallow, '--json'])).code).toBe(0);
  });

  it('context: a truncated pack is exit 1 saying which pack, not a stack trace from the working-tree check', async () => {
    const result = await runCli(['--repo', truncated]);
    expect(result.code).toBe(1);
    oneClearLine(result, `cannot read ${truncated}`, 'is truncated or damaged (its checksum does not match its index)');
  });

  it('context: a deleted object is exit 1 naming it, not rules or skills that "failed"', async () => {
    const result = await runCli(['--repo', missing, '--json']);
    expect(result.code).toBe(1);
    oneClearLine(result, `file ${missingBlob} is missing from the repository`);
  });

  it.each([
    ['a shallow clone', () => shallow, 'not in this shallow clone'],
    ['a truncated pack', () => truncated, 'truncated or damaged'],
    ['a deleted object', () => missing, 'is missing from the repository'],
  ])('freshness: the context at --since in %s could not be read: exit 1 with the reason, never "nothing changed"', async (_, repo, phrase) => {
    for (const argv of [['--repo', repo(), '--since', 'HEAD~1'], ['--repo', repo(), '--since', 'HEAD~1', '--json']]) {
      const result = await freshness(argv);
      expect(result.code, result.stderr).toBe(1);
      oneClearLine(result, phrase);
      expect(result.stderr).not.toContain('no repository source');
    }
  });

  it('run: a repository missing a tree is exit 1 at once, naming the tree and the commit, before any Worker starts', async () => {
    const result = await run(['--repo', missingTree, '--state', join(missingTree, '.state')]);
    expect(result.code).toBe(1);
    oneClearLine(result, `commit ${head} cannot be served: 1 tree it needs is missing from the repository: tree ${missingTreeId} (.agents/skills/lint)`);
    expect(result.stderr).not.toMatch(/Worker ready|retrying|Packfile/);
  });

  it('the shipped CLI answers every case with one line and exit 1', async () => {
    const exec = promisify(execFile);
    for (const argv of [
      ['context', '--repo', shallow, '--ref', 'HEAD~1'],
      ['context', '--repo', truncated],
      ['freshness', '--repo', truncated, '--since', 'HEAD~1'],
      ['context', '--repo', missing],
    ]) {
      const failed = await exec(process.execPath, [BUILT_CLI, ...argv]).then(
        () => undefined,
        (error: { code?: number; stdout?: string; stderr?: string }) => error,
      );
      expect(failed?.code, argv.join(' ')).toBe(1);
      oneClearLine({ stdout: failed?.stdout ?? '', stderr: failed?.stderr ?? '' });
    }
  });
});
