/**
 * @module test/support/delta-repo
 * `deltas.git` for the git server (test/setup/git-http-server.ts): one commit of
 * {@link DELTA_FILES} similar files, repacked by real git so that they are stored as delta
 * chains. upload-pack reuses those deltas, as OBJ_OFS_DELTA because the client asks for
 * `ofs-delta`. The same objects are also packed without `--delta-base-offset`, which makes
 * git-pack-objects(1) name every delta base by its id (OBJ_REF_DELTA: "without this option, git
 * pack-objects uses the former", git 2.39.5), for the tests that index a pack directly; what
 * `git verify-pack -v` says of that pack comes with it, so the tests check git's own account.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloneBare, gitEnv, type GitFixture } from './git-fixtures.ts';
import { DELTA_FILES, deltaFilePath, deltaFileText } from './delta-text.ts';

export interface DeltaFixture {
  head: string;
  /** A pack of every object of `head`, with its deltas' bases named by id (base64). */
  refPack: string;
  /** Every object in `refPack` as git verify-pack lists it; `depth` and `base` for deltas. */
  refPackObjects: Array<{ oid: string; type: string; offset: number; depth?: number; base?: string }>;
}

const WINDOW = ['--window=64', '--depth=64'];

export function buildDeltaRepo(work: GitFixture, root: string): DeltaFixture {
  for (let version = 0; version < DELTA_FILES; version++) work.write(deltaFilePath(version), deltaFileText(version));
  const head = work.commitAll('versions');
  const bare = cloneBare(work, root, 'deltas.git');
  execFileSync('git', ['repack', '--quiet', '-adf', ...WINDOW], { cwd: bare, env: gitEnv() });

  const scratch = mkdtempSync(join(tmpdir(), 'groundwork-ref-pack-'));
  try {
    execFileSync('git', ['pack-objects', '--quiet', '--revs', ...WINDOW, join(scratch, 'p')], { cwd: bare, env: gitEnv(), input: `${head}\n` });
    const name = readdirSync(scratch).find((file) => file.endsWith('.pack'));
    if (!name) throw new Error('git pack-objects wrote no pack');
    const verified = execFileSync('git', ['verify-pack', '-v', join(scratch, name.replace(/\.pack$/, '.idx'))], { cwd: bare, env: gitEnv(), encoding: 'utf8' });
    const refPackObjects = verified
      .split('\n')
      .map((line) => line.split(/\s+/))
      .filter((fields) => /^[0-9a-f]{40}$/.test(fields[0] ?? ''))
      .map(([oid = '', type = '', , , offset = '0', depth, base]) => ({ oid, type, offset: Number(offset), ...(depth && base ? { depth: Number(depth), base } : {}) }));
    return { head, refPack: readFileSync(join(scratch, name)).toString('base64'), refPackObjects };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
