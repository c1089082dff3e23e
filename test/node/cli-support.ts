import { fileURLToPath } from 'node:url';
import { runContextCommand, type CliDeps } from '../../src/cli/context-command.ts';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';

/** The CLI as shipped: `npm run build` (run by `npm install` and before `npm test`) writes it. */
export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], deps: CliDeps = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runContextCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, deps);
  return { code, stdout, stderr };
}

export async function runCliJson(argv: string[], deps: CliDeps = {}): Promise<AssembledTurn & { stderr: string }> {
  const run = await runCli([...argv, '--json'], deps);
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return { ...AssembledTurnSchema.parse(JSON.parse(run.stdout)), stderr: run.stderr };
}

export function userMessage(turn: AssembledTurn): string {
  return turn.messages.find((m) => m.role === 'user')?.content ?? '';
}

/** One provider's entries and outcome in a turn. */
export function ofProvider(turn: AssembledTurn, name: string): { entries: AssembledTurn['entries']; outcome: AssembledTurn['providers'][number] | undefined } {
  return { entries: turn.entries.filter((entry) => entry.provider === name), outcome: turn.providers.find((provider) => provider.name === name) };
}
