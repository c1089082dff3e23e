import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/cli/node-version.ts';
import { BUILT_CLI } from './cli-support.ts';

const ROOT = dirname(dirname(BUILT_CLI));

/** A Node on the PATH too old for the CLI (Debian's is 20), if this machine has one. */
function olderNode(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
    if (nodeVersionProblem(version, ROOT, BUILT_CLI) !== undefined) return candidate;
  }
  return undefined;
}

describe('the CLI on an older Node', () => {
  it('names the pinned Node and npx when the project has its dev dependencies', () => {
    expect(nodeVersionProblem('20.20.2', ROOT, BUILT_CLI)).toBe(
      [
        'groundwork: needs Node 22.12 or newer; this is Node 20.20.2.',
        `Run it with the Node this project pins: ${join(ROOT, 'node_modules', '.bin', 'node')} ${BUILT_CLI}`,
        `or from inside ${ROOT}: npx groundwork (npm scripts such as npm start use that Node too).`,
        '',
      ].join('\n'),
    );
    expect(nodeVersionProblem('22.11.0', ROOT, BUILT_CLI)).toContain('this is Node 22.11.0.');
  });

  it('says to install a newer Node where no pinned one is installed, and accepts 22.12 and later', () => {
    expect(nodeVersionProblem('18.0.0', '/nonexistent', '/nonexistent/dist/cli.js')).toBe(
      'groundwork: needs Node 22.12 or newer; this is Node 18.0.0.\nInstall Node 22.12 or newer (Node 24 works too), then run it again.\n',
    );
    for (const version of ['22.12.0', '22.23.3', '23.0.0', '24.1.0']) expect(nodeVersionProblem(version, ROOT, BUILT_CLI)).toBeUndefined();
  });

  const older = olderNode();
  it.skipIf(older === undefined)(`prints it from the built bin and exits 1 (${older ?? 'no older Node on this machine'})`, () => {
    const run = spawnSync(older ?? 'node', [BUILT_CLI, '--version'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^groundwork: needs Node 22\.12 or newer; this is Node \d+\.\d+\.\d+\.\nRun it with the Node this project pins: /);
    // The command it names works.
    const pinned = spawnSync(join(ROOT, 'node_modules', '.bin', 'node'), [BUILT_CLI, '--version'], { encoding: 'utf8' });
    expect(pinned.stdout).toMatch(/^groundwork \d+\.\d+\.\d+\n$/);
  });
});
