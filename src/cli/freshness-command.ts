/**
 * @module cli/freshness-command
 * `groundwork freshness`: what `GET /tasks/:id/freshness` answers, for a local repository. The
 * sources are the ones the first turn at `--since` holds (assembled through the same pipeline
 * as `groundwork context`); each is compared with `--ref` as it is now, by blob id.
 */
import { resolveAgent } from '../context/agents.ts';
import type { Registry } from '../context/registry.ts';
import { assembleFirstTurn } from '../context/turn.ts';
import { checkFreshness } from '../freshness/check.ts';
import { short } from '../freshness/compare.ts';
import { sourceLines } from '../freshness/describe.ts';
import type { FreshnessReport } from '../freshness/report.ts';
import { trackedSources } from '../freshness/tracked.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import { createLocalGitSource } from '../sources/git/local-source.ts';
import type { RepositorySource } from '../sources/snapshot.ts';
import type { CliIo } from './context-command.ts';
import { FRESHNESS_USAGE, parseFreshnessArgs } from './freshness-args.ts';

export const FRESHNESS_EXIT = { fresh: 0, unchecked: 1, usage: 2, stale: 3 } as const;

/** A local repository answers quickly; this only bounds a pathological one. */
const DEADLINE_MS = 60_000;

export interface FreshnessDeps {
  openSource?: (dir: string) => RepositorySource;
  registry?: Registry;
  now?: () => number;
}

export async function runFreshnessCommand(argv: readonly string[], io: CliIo, deps: FreshnessDeps = {}): Promise<number> {
  const parsed = parseFreshnessArgs(argv);
  if (!parsed.ok) {
    io.stderr(`groundwork freshness: ${parsed.error}\n\n${FRESHNESS_USAGE}\n`);
    return FRESHNESS_EXIT.usage;
  }
  const { options } = parsed;
  if (options.help || options.since === undefined) {
    io.stdout(`${FRESHNESS_USAGE}\n`);
    return FRESHNESS_EXIT.fresh;
  }
  const agent = resolveAgent(options.agent);
  if (!agent.ok) {
    io.stderr(`groundwork freshness: --agent: ${agent.error}\n`);
    return FRESHNESS_EXIT.usage;
  }

  const source = (deps.openSource ?? createLocalGitSource)(options.repo);
  const since = await source.resolve(options.since);
  if (since.status !== 'ok') {
    io.stderr(`groundwork freshness: --since: ${since.status === 'missing' ? `${options.since} does not name a commit in ${source.repository}` : since.reason}\n`);
    return FRESHNESS_EXIT.unchecked;
  }
  const turn = await assembleFirstTurn({
    registry: deps.registry ?? createDefaultRegistry(),
    agent: agent.agent,
    available: ['repo:read'],
    snapshot: source.snapshot(since.commit),
    source,
    task: { request: options.task, origin: 'cli', repository: source.repository, commit: since.commit, cwd: options.cwd, trusted: true, skills: options.skill, agent: agent.agent.name },
    turn: 0,
    configs: options['skills-root'].length > 0 ? { skills: { roots: options['skills-root'] } } : {},
  });
  const report = await checkFreshness({
    source,
    commit: since.commit,
    target: options.ref,
    sources: trackedSources(turn.entries),
    deadlineMs: DEADLINE_MS,
    now: deps.now ?? Date.now,
  });

  io.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
  if (report.current === null || report.sources.some((check) => check.status === 'unverifiable')) return FRESHNESS_EXIT.unchecked;
  return report.sources.some((check) => check.status !== 'unchanged') ? FRESHNESS_EXIT.stale : FRESHNESS_EXIT.fresh;
}

function formatReport(report: FreshnessReport): string {
  const head =
    report.current === null
      ? `${report.ref}: could not be resolved (${report.reason ?? 'no reason given'}); the context was read at ${short(report.commit)}`
      : report.moved
        ? `${report.ref} moved ${short(report.commit)} -> ${short(report.current)}`
        : `${report.ref} is still at ${short(report.commit)}`;
  const lines = sourceLines(report.sources, Number.MAX_SAFE_INTEGER);
  return [head, ...(lines.length > 0 ? lines : ['- no repository source in the context at this commit'])].join('\n');
}
