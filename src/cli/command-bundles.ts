/**
 * @module cli/command-bundles
 * The commands built as scripts run with a code cache (`dist/commands/<name>.cjs`, see
 * cli/code-cache): those a user or an agent waits on at every invocation. `run` is not one: it
 * loads Miniflare, an ES module, and its start-up is Miniflare's.
 */
export const COMMAND_BUNDLES = {
  context: 'src/cli/context-command.ts',
  freshness: 'src/cli/freshness-command.ts',
  rules: 'src/cli/rules-command.ts',
  check: 'src/cli/check-command.ts',
  hook: 'src/cli/hook.ts',
  mcp: 'src/cli/mcp.ts',
} as const;

export type CommandBundle = keyof typeof COMMAND_BUNDLES;
