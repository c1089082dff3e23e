/**
 * @module cli/node-version
 * Whether this Node can run the CLI, and if not, how to run it. `dist/cli.js` started directly by
 * an older `node` says so and names the `groundwork` command (`dist/groundwork.cjs`, the package's
 * bin), which finds a Node that can run it by itself (cli/launcher). It imports nothing: it runs
 * before anything else loads, in the CLI's ES module, where importing a built-in costs its whole
 * ESM facade (cli/main, issue 56), and the launcher, which may run on a much older Node, imports
 * it; the caller passes `exists` on the rare path that needs it.
 */

export const MIN_NODE = [22, 12] as const;

/** Whether this Node version (`22.12.0`, or `node --version`'s `v22.12.0`) can run the CLI: {@link MIN_NODE} or newer. */
export function supportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

/**
 * The message for a Node older than {@link MIN_NODE}, or `undefined` when this one will do.
 *
 * @example
 * nodeVersionProblem('20.20.2', '/src/groundwork', '/src/groundwork/dist/cli.js', existsSync)
 * // 'groundwork: needs Node 22.12 or newer; this is Node 20.20.2.\nRun the groundwork command instead: …'
 */
export function nodeVersionProblem(version: string, packageRoot: string, cli: string, exists: (path: string) => boolean): string | undefined {
  if (supportedNode(version)) return undefined;
  const head = `groundwork: needs Node ${MIN_NODE.join('.')} or newer; this is Node ${version}.`;
  const launcher = `${packageRoot}/dist/groundwork.cjs`;
  if (!exists(launcher)) return `${head}\nInstall Node ${MIN_NODE.join('.')} or newer (Node 24 works too), then run ${cli} again.\n`;
  return [head, `Run the groundwork command instead (${launcher}, which npm links as groundwork): it starts the CLI on the package's own Node or a newer one on PATH.`, ''].join('\n');
}
