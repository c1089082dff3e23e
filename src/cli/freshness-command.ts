/**
 * @module cli/freshness-command
 * `groundwork freshness`: what `GET /tasks/:id/freshness` answers, for a local repository. The
 * sources are the ones the first turn at `--since` holds (assembled through the same pipeline
 * and settings as `groundwork context`); each is compared with `--ref` as it is now, by blob id.
 * A context at `--since` that could not be read whole (the repository is missing what it needs,
 * a provider that reads it failed) is exit 1 with the reason: nothing to compare is not "fresh".
 */
// First: it configures zod before any schema below is built.
import './zod-config.ts';
import { cliAgent } from './cli-agent.ts';
import { clientOf } from '../context/client.ts';
import type { Registry } from '../context/registry.ts';
import { checkFreshness } from '../freshness/check.ts';
import { short } from '../freshness/compare.ts';
import { sourceLines } from '../freshness/describe.ts';
import type { FreshnessReport } from '../freshness/report.ts';
import { turnSources } from '../freshness/tracked.ts';
import type { AssembledTurn } from '../context/turn-schema.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import { revisionProblem } from '../sources/git/ancestry.ts';
import type { RepositorySource } from '../sources/snapshot.ts';
import type { CliIo } from './context-command.ts';
import { FRESHNESS_USAGE, parseFreshnessArgs } from './freshness-args.ts';
import { assembleLocalTurn } from './local-turn.ts';
import { openLocalRepository } from './open-local.ts';
import { cliTaskSettings } from './task-settings.ts';
import { jsonOutput } from './json-output.ts';
import { terminalText } from './terminal-text.ts';
import { usageError } from './usage.ts';

export const FRESHNESS_EXIT = { fresh: 0, unchecked: 1, usage: 2, stale: 3 } as const;

/** A local repository answers quickly; this only bounds a pathological one. */
const DEADLINE_MS = 60_000;

export interface FreshnessDeps {
  openSource?: (dir: string) => RepositorySource;
  registry?: Registry;
  now?: () => number;
}

export async function runFreshnessCommand(argv: readonly string[], rawIo: CliIo, deps: FreshnessDeps = {}): Promise<number> {
  const stderr = (text: string): void => rawIo.stderr(terminalText(text));
  const parsed = parseFreshnessArgs(argv);
  if (!parsed.ok) {
    stderr(usageError('groundwork freshness', parsed.error, 'groundwork freshness --help'));
    return FRESHNESS_EXIT.usage;
  }
  const { options } = parsed;
  const stdout = options.json ? rawIo.stdout : (text: string) => rawIo.stdout(terminalText(text));
  if (options.help || options.since === undefined) {
    stdout(`${FRESHNESS_USAGE}\n`);
    return FRESHNESS_EXIT.fresh;
  }
  const agent = cliAgent(options.agent);
  if (!agent.ok) {
    stderr(`groundwork freshness: --agent: ${agent.error}\n`);
    return FRESHNESS_EXIT.usage;
  }
  // --since is checked when the repository opens; --ref is only resolved after assembly.
  const refProblem = revisionProblem(options.ref);
  if (refProblem !== undefined) {
    stderr(`groundwork freshness: --ref: ${refProblem}\n`);
    return FRESHNESS_EXIT.usage;
  }
  const registry = deps.registry ?? createDefaultRegistry();
  const settings = cliTaskSettings(options, registry);
  if (!settings.ok) {
    stderr(`groundwork freshness: ${settings.error}\n`);
    return FRESHNESS_EXIT.usage;
  }

  const opened = await openLocalRepository({ repo: options.repo, ref: options.since, refOption: '--since', cwd: options.cwd, ...(deps.openSource ? { openSource: deps.openSource } : {}) });
  if (!opened.ok) {
    stderr(`groundwork freshness: ${opened.error}\n`);
    return opened.exit === 2 ? FRESHNESS_EXIT.usage : FRESHNESS_EXIT.unchecked;
  }
  const { source, commit } = opened;
  const snapshot = source.snapshot(commit);
  const turn = await assembleLocalTurn({ registry, agent: agent.agent, opened, snapshot, ref: options.since, request: options.task, paths: options.path, skills: options.skill, trusted: true, settings: settings.layer, client: clientOf(options.client) });
  const unread = unreadContext(turn, registry, source.unreadable?.());
  if (unread !== undefined) {
    stderr(`groundwork freshness: the context at ${options.since} could not be read, so nothing was checked: ${unread}\n`);
    return FRESHNESS_EXIT.unchecked;
  }
  const report = await checkFreshness({ source, commit, pinned: snapshot, target: options.ref, sources: turnSources(turn), deadlineMs: DEADLINE_MS, now: deps.now ?? Date.now });
  const damaged = source.unreadable?.();
  if (damaged !== undefined) {
    stderr(`groundwork freshness: cannot read ${opened.root}: ${damaged}\n`);
    return FRESHNESS_EXIT.unchecked;
  }

  stdout(options.json ? jsonOutput(report) : `${formatReport(report)}\n`);
  if (report.current === null || report.sources.some((check) => check.status === 'unverifiable')) return FRESHNESS_EXIT.unchecked;
  return report.sources.some((check) => check.status !== 'unchanged') ? FRESHNESS_EXIT.stale : FRESHNESS_EXIT.fresh;
}

/**
 * Why the turn at --since is not the context it claims to be: the repository's own failure, or a
 * provider that reads the repository failing (its sources are then unknown, so none can be compared).
 */
function unreadContext(turn: AssembledTurn, registry: Registry, damage: string | undefined): string | undefined {
  if (damage !== undefined) return damage;
  const failed = turn.providers.find((provider) => (provider.outcome === 'failed' || provider.outcome === 'timed-out') && registry.get(provider.name)?.requires.includes('repo:read'));
  return failed ? `${failed.name} ${failed.outcome}: ${failed.reason ?? 'no reason given'}` : undefined;
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
