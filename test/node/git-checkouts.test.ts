import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, runGit, type GitFixture } from '../support/git-fixtures.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { runCli, runCliJson } from './cli-support.ts';

/** The checkouts people have, each made by git itself from one origin repository. */
describe('every kind of checkout', () => {
  let origin: GitFixture;
  let head: string;
  const made: string[] = [];
  const checkout = (name: string, ...args: string[]): string => {
    const dir = `${origin.dir}-${name}`;
    runGit(origin.dir, [...args, dir]);
    made.push(dir);
    return dir;
  };

  beforeAll(() => {
    origin = createGitRepo();
    origin.write('AGENTS.md', 'Root rules.\n');
    origin.write('src/AGENTS.md', 'Source rules.\n');
    origin.commitAll('first');
    origin.write('README.md', 'second\n');
    head = origin.commitAll('second');
    origin.git('gc', '--quiet');
  });
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
    origin.remove();
  });

  const rulesOf = async (argv: string[]) => (await runCliJson([...argv, '--cwd', 'src'])).entries.filter((e) => e.provider === 'rules').map((e) => `${e.source.path}@${e.source.revision}`);
  const expected = () => [`AGENTS.md@${head}`, `src/AGENTS.md@${head}`];

  it('reads a bare repository (and a mirror)', async () => {
    expect(await rulesOf(['--repo', checkout('bare', 'clone', '--quiet', '--bare', origin.dir)])).toEqual(expected());
    expect(await rulesOf(['--repo', checkout('mirror', 'clone', '--quiet', '--mirror', origin.dir)])).toEqual(expected());
  });

  it('reads a clone whose objects live in another repository (--shared, --reference: alternates)', async () => {
    expect(await rulesOf(['--repo', checkout('shared', 'clone', '--quiet', '--shared', origin.dir)])).toEqual(expected());
    const referenced = `${origin.dir}-referenced`;
    made.push(referenced);
    runGit(origin.dir, ['clone', '--quiet', '--reference', origin.dir, `file://${origin.dir}`, referenced]);
    expect(await rulesOf(['--repo', referenced])).toEqual(expected());
  });

  it('reads a shallow clone, and says what to do for a commit it does not have', async () => {
    const shallow = checkout('shallow', 'clone', '--quiet', '--depth', '1', `file://${origin.dir}`);
    expect(await rulesOf(['--repo', shallow])).toEqual(expected());
    const first = origin.git('rev-parse', 'HEAD~1');
    const run = await runCli(['--repo', shallow, '--ref', first]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('shallow clone');
    expect(run.stderr).toContain(`git -C ${shallow} fetch --unshallow`);
  });

  it('reads refs that git has packed', async () => {
    const packed = checkout('packed', 'clone', '--quiet', origin.dir);
    runGit(packed, ['tag', 'v1', 'HEAD']);
    runGit(packed, ['pack-refs', '--all']);
    expect(await rulesOf(['--repo', packed, '--ref', 'v1'])).toEqual(expected());
    expect(await rulesOf(['--repo', packed, '--ref', 'origin/main'])).toEqual(expected());
  });

  it('lists a submodule as a submodule and reads from inside a submodule checkout', async () => {
    const parent = createGitRepo();
    made.push(parent.dir);
    parent.write('AGENTS.md', 'Parent rules.\n');
    parent.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', origin.dir, 'vendor/lib');
    parent.commitAll('with a submodule');
    const listing = await createLocalGitSource(parent.dir).snapshot(parent.git('rev-parse', 'HEAD')).list('vendor');
    expect(listing).toMatchObject({ status: 'ok', entries: [{ path: 'vendor/lib', kind: 'submodule' }] });
    const into = await runCli(['--repo', parent.dir, '--cwd', 'vendor/lib']);
    expect(into.code).toBe(2);
    expect(into.stderr).toContain(`--cwd: vendor/lib is a submodule at HEAD`);
    expect(into.stderr).toContain(`run with --repo ${parent.dir}/vendor/lib`);
    // Inside the submodule, .git is a file pointing into the parent's .git/modules.
    const inside = await runCliJson(['--repo', `${parent.dir}/vendor/lib`, '--cwd', 'src']);
    expect(inside.entries.filter((e) => e.provider === 'rules').map((e) => e.source.path)).toEqual(['AGENTS.md', 'src/AGENTS.md']);
  });

  it('says which case it is when objects are missing from a partial clone', async () => {
    const partial = `${origin.dir}-partial`;
    made.push(partial);
    origin.git('config', 'uploadpack.allowFilter', 'true');
    runGit(origin.dir, ['clone', '--quiet', '--no-checkout', '--filter=blob:none', `file://${origin.dir}`, partial]);
    const run = await runCli(['--repo', partial, '--cwd', 'src']);
    // An object the commit needs and the clone has not fetched: the repository could not be read
    // (exit 1), said in one line with the git command that fetches it, not a context without rules.
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^groundwork: cannot read .* at HEAD \([0-9a-f]{12}\): file [0-9a-f]{40} has not been fetched: this is a partial clone \(filter blob:none\)/);
    expect(run.stderr).toContain(`git -C ${partial} cat-file -p`);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
