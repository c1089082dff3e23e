/**
 * @module cli/context-command
 * `groundwork context`: pins a local repository at a commit, assembles the first turn through
 * the same pipeline the Worker uses, and prints it.
 * Exit codes: 0 assembled, 1 the repository could not be read, 2 bad usage.
 */
import { resolveAgent } from '../context/agents.ts';
import { formatRequest } from '../context/formats/format.ts';
import { promptFromTurn } from '../context/formats/prompt.ts';
import type { Registry } from '../context/registry.ts';
import { assembleFirstTurn } from '../context/turn.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import { createLocalGitSource } from '../sources/git/local-source.ts';
import type { RepositorySource } from '../sources/snapshot.ts';
import { parseCliArgs, USAGE } from './args.ts';
import { formatTurn, warningLines } from './format.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface CliDeps {
  openSource?: (dir: string) => RepositorySource;
  registry?: Registry;
}

export const EXIT = { assembled: 0, unreadable: 1, usage: 2 } as const;

export async function runContextCommand(argv: readonly string[], io: CliIo, deps: CliDeps = {}): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) {
    io.stderr(`groundwork: ${parsed.error}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  const options = parsed.options;
  if (options.help) {
    io.stdout(`${USAGE}\n`);
    return EXIT.assembled;
  }
  const agent = resolveAgent(options.agent);
  if (!agent.ok) {
    io.stderr(`groundwork: --agent: ${agent.error}\n`);
    return EXIT.usage;
  }

  const source = (deps.openSource ?? createLocalGitSource)(options.repo);
  const resolved = await source.resolve(options.ref);
  if (resolved.status === 'missing') {
    io.stderr(`groundwork: --ref: ${options.ref} does not name a commit in ${source.repository}\n`);
    return EXIT.unreadable;
  }
  if (resolved.status === 'failed') {
    io.stderr(`groundwork: cannot read ${options.repo}: ${resolved.reason}\n`);
    return EXIT.unreadable;
  }

  const turn = await assembleFirstTurn({
    registry: deps.registry ?? createDefaultRegistry(),
    agent: agent.agent,
    available: ['repo:read'],
    snapshot: source.snapshot(resolved.commit),
    source,
    task: {
      request: options.task,
      origin: 'cli',
      repository: source.repository,
      ref: options.ref,
      commit: resolved.commit,
      cwd: options.cwd,
      trusted: !options.untrusted,
      skills: options.skill,
      agent: agent.agent.name,
    },
    turn: 0,
    configs: options['skills-root'].length > 0 ? { skills: { roots: options['skills-root'] } } : {},
  });

  for (const line of warningLines(turn)) io.stderr(`${line}\n`);
  if (options.format) io.stdout(`${JSON.stringify(formatRequest(options.format, await promptFromTurn(turn)).body, null, 2)}\n`);
  else io.stdout(options.json ? `${JSON.stringify(turn, null, 2)}\n` : `${formatTurn(turn)}\n`);
  return EXIT.assembled;
}
