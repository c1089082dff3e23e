/**
 * @module cli/node-version
 * Whether this Node can run the CLI, and if not, how to run it. `dist/cli.js` started directly by
 * an older `node` says so and names the `groundwork` command (`dist/groundwork.cjs`, the package's
 * bin), which finds a Node that can run it by itself (cli/launcher). Node built-ins only: it runs
 * before anything else loads, and the launcher, which may run on a much older Node, imports it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const MIN_NODE = [22, 12] as const;

/**
 * The message for a Node older than {@link MIN_NODE}, or `undefined` when this one will do.
 *
 * @example
 * nodeVersionProblem('20.20.2', '/src/groundwork', '/src/groundwork/dist/cli.js')
 * // 'groundwork: needs Node 22.12 or newer; this is Node 20.20.2.\nRun the groundwork command instead: …'
 */
export function nodeVersionProblem(version: string, packageRoot: string, cli: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  const head = `groundwork: needs Node ${MIN_NODE.join('.')} or newer; this is Node ${version}.`;
  const launcher = join(packageRoot, 'dist', 'groundwork.cjs');
  if (!existsSync(launcher)) return `${head}\nInstall Node ${MIN_NODE.join('.')} or newer (Node 24 works too), then run ${cli} again.\n`;
  return [head, `Run the groundwork command instead (${launcher}, which npm links as groundwork): it starts the CLI on the package's own Node or a newer one on PATH.`, ''].join('\n');
}
