import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCwdOption } from '../../src/cli/cwd-option.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { runCli, runCliJson } from './cli-support.ts';

describe('--cwd given as an absolute path', () => {
  let repo: GitFixture;
  let outside: string;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Root rules\n');
    repo.write('services/auth/AGENTS.md', '# Auth rules\n');
    repo.commitAll('rules');
    outside = mkdtempSync(join(tmpdir(), 'groundwork-outside-'));
  });
  afterAll(() => {
    repo.remove();
    rmSync(outside, { recursive: true, force: true });
  });

  it('inside the repository is the same working directory as the relative path', async () => {
    const relative = await runCliJson(['--repo', repo.dir, '--cwd', 'services/auth']);
    const absolute = await runCliJson(['--repo', repo.dir, '--cwd', join(repo.dir, 'services', 'auth')]);
    expect(absolute.digest).toBe(relative.digest);
    expect(absolute.entries.filter((entry) => entry.provider === 'rules').map((entry) => entry.title)).toEqual(['AGENTS.md', 'services/auth/AGENTS.md']);
    const root = await runCliJson(['--repo', repo.dir, '--cwd', `${repo.dir}/`]);
    expect(root.entries.filter((entry) => entry.provider === 'rules').map((entry) => entry.title)).toEqual(['AGENTS.md']);
  });

  it('outside the repository is refused in one line, without the usage text', async () => {
    const run = await runCli(['--repo', repo.dir, '--cwd', outside]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`groundwork: --cwd: ${outside} is outside the repository ${repo.dir}\n`);
  });

  it('is made relative through symlinks on either side, and a relative path stays checked', () => {
    const link = join(outside, 'link-to-repo');
    symlinkSync(repo.dir, link);
    expect(resolveCwdOption(join(link, 'services/auth'), repo.dir)).toEqual({ ok: true, path: 'services/auth' });
    expect(resolveCwdOption(join(repo.dir, 'not/committed/yet'), link)).toEqual({ ok: true, path: 'not/committed/yet' });
    expect(resolveCwdOption(join(repo.dir, '..'), repo.dir)).toMatchObject({ ok: false });
    expect(resolveCwdOption('./services//auth/', repo.dir)).toEqual({ ok: true, path: 'services/auth' });
    expect(resolveCwdOption('../up', repo.dir)).toEqual({ ok: false, error: '--cwd: path escapes the repository root' });
  });
});
