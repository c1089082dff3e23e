/**
 * @module cli/node-version
 * Whether this Node can run the CLI, and if not, how to run it: the project pins Node 22 as a dev
 * dependency, so a checkout has a Node that can (`node_modules/.bin/node`, which `npx` and every
 * npm script put first on the PATH). Node built-ins only: it runs before anything else loads.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const MIN_NODE = [22, 12] as const;

/**
 * The message for a Node older than {@link MIN_NODE}, or `undefined` when this one will do.
 *
 * @example
 * nodeVersionProblem('20.20.2', '/src/groundwork', '/src/groundwork/dist/cli.js')
 * // 'groundwork: needs Node 22.12 or newer; this is Node 20.20.2.\nRun it with the Node this project pins: …'
 */
export function nodeVersionProblem(version: string, packageRoot: string, cli: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  const head = `groundwork: needs Node ${MIN_NODE.join('.')} or newer; this is Node ${version}.`;
  const pinned = join(packageRoot, 'node_modules', '.bin', 'node');
  if (!existsSync(pinned)) return `${head}\nInstall Node ${MIN_NODE.join('.')} or newer (Node 24 works too), then run it again.\n`;
  return [
    head,
    `Run it with the Node this project pins: ${pinned} ${cli}`,
    `or from inside ${packageRoot}: npx groundwork (npm scripts such as npm start use that Node too).`,
    '',
  ].join('\n');
}
