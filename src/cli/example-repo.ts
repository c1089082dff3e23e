/**
 * @module cli/example-repo
 * The bundled example project (examples/calculator) committed into a fresh git repository in a
 * temporary directory, with a fixed author and time so its commit id is the same on every machine.
 * `npm run demo` and `npm start` run on it, and delete it when they end (`npm start` keeps its
 * service's state in it, so it lives exactly as long as the service).
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { add, commit, init } from 'isomorphic-git';

const AUTHOR = { name: 'Groundwork Demo', email: 'demo@groundwork.invalid', timestamp: 1_767_225_600, timezoneOffset: 0 };

export const EXAMPLE_ARGS = ['--cwd', 'src', '--task', 'Add a square root operation. Use $add-operation.'];

export async function commitExample(): Promise<{ dir: string; commit: string }> {
  const example = findExample();
  const dir = fs.mkdtempSync(join(tmpdir(), 'groundwork-demo-'));
  fs.cpSync(example, dir, { recursive: true });
  await init({ fs, dir, defaultBranch: 'main' });
  await add({ fs, dir, filepath: '.' });
  const sha = await commit({ fs, dir, message: 'Calculator example', author: AUTHOR, committer: AUTHOR });
  return { dir, commit: sha };
}

/** Deletes the example repository (and the state `groundwork run` kept in it). */
export function removeExample(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** `examples/calculator` of the package, from src/cli/ or from a bundle chunk under dist/. */
function findExample(): string {
  for (const relative of ['../../examples/calculator', '../examples/calculator', '../../../examples/calculator']) {
    const path = fileURLToPath(new URL(relative, import.meta.url));
    if (fs.existsSync(join(path, 'AGENTS.md'))) return path;
  }
  throw new Error('examples/calculator is missing from the groundwork package');
}
