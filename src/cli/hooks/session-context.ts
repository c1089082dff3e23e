/**
 * @module cli/hooks/session-context
 * The context a session-start hook gives: the repository at the agent's working directory, at
 * HEAD, assembled as `groundwork context` assembles it, with two differences a hook needs:
 * - Outside a repository (or in one with no commit yet) there is nothing to give, and nothing is
 *   said: an agent started in a home directory gets no warning every session.
 * - Providers that cannot run locally (earlier tasks, recorded knowledge, the GitHub API: see
 *   `LOCAL_CAPABILITIES`) are not run, so the session carries no notice that they were not read:
 *   the agent could do nothing about it.
 *
 * The context is for the client the hook speaks for (src/clients): the rules provider gives that
 * client only what it does not load itself, and names the rule files it loads at start by path
 * and blob in one line, so a session never carries a second copy of its own `AGENTS.md`.
 */
import type { AgentConfig } from '../../context/agents.ts';
import { clientLabel } from '../../context/client.ts';
import { turnContext } from '../../context/host-items.ts';
import type { Registry } from '../../context/registry.ts';
import type { RuleSetReader } from '../../context/rule-set.ts';
import { createRuleSetReader } from '../../context/rule-set-reader.ts';
import { turnSources, type TrackedSource } from '../../freshness/tracked.ts';
import { discoverRepository } from '../../sources/git/discover.ts';
import { assembleLocalTurn, LOCAL_CAPABILITIES, localProviders } from '../local-turn.ts';
import { openLocalRepository } from '../open-local.ts';
import type { HookClientRef } from './hook-client.ts';
import type { SessionRecord } from './session-record.ts';

export interface SessionContextInput {
  registry: Registry;
  agent: AgentConfig;
  /** The agent's working directory, from the hook input. */
  cwd: string;
  /** Why the session (re)started, as the agent said (`startup`, `compact`, …). */
  source: string | undefined;
  /** The agent the hook speaks for (its host and version as `--client` named them): the context is its complement. */
  client: HookClientRef;
}

export type SessionContext =
  | { kind: 'context'; text: string; root: string; cwd: string; commit: string; sources: TrackedSource[] }
  /** Not in a repository, or nothing committed: the hook says nothing. */
  | { kind: 'outside' }
  | { kind: 'failed'; error: string };

export async function sessionContext(input: SessionContextInput): Promise<SessionContext> {
  if (!discoverRepository(input.cwd).ok) return { kind: 'outside' };
  const opened = await openLocalRepository({ repo: input.cwd, ref: 'HEAD', cwd: undefined });
  if (!opened.ok) return /does not name a commit/.test(opened.error) ? { kind: 'outside' } : { kind: 'failed', error: opened.error };
  const snapshot = opened.source.snapshot(opened.commit);
  const where = opened.cwd || 'the repository root';
  const turn = await assembleLocalTurn({
    registry: input.registry,
    agent: localProviders(input.agent, input.registry),
    opened,
    snapshot,
    ref: 'HEAD',
    request: requestFor(input.source, where),
    paths: [],
    skills: [],
    trusted: true,
    settings: {},
    client: input.client,
  });
  const text = turnContext(turn);
  if (text === undefined) return { kind: 'failed', error: 'the assembly produced no context' };
  const warnings = opened.warnings.map((warning) => `(warning: ${warning})`);
  return {
    kind: 'context',
    text: [text, ...warnings, '', `(Groundwork context of ${opened.root} at ${opened.commit} for ${clientLabel(input.client)}, digest ${turn.digest}.)`].join('\n'),
    root: opened.root,
    cwd: opened.cwd,
    commit: opened.commit,
    sources: turnSources(turn),
  };
}

/**
 * The rule set of the session's context at any commit, for the prompt hook to compare: the same
 * agent, client and working directory session-start assembled for (a record from before it kept
 * the directory: the root), so a rule the client now loads itself, or must be given, is told apart.
 */
export function sessionRuleSets(record: SessionRecord, input: Omit<SessionContextInput, 'cwd' | 'source'>): RuleSetReader | undefined {
  const { registry } = input;
  const agent = localProviders(input.agent, registry);
  const task = { request: '', origin: 'cli' as const, repository: `file://${record.root}`, ref: 'HEAD', commit: record.commit, cwd: record.cwd ?? '', focusPaths: [], trusted: true, skills: [], agent: agent.name, client: input.client };
  return createRuleSetReader({ registry, agent, task, available: LOCAL_CAPABILITIES, settings: { task: {} } });
}

/** The task line of a session's context: what happened, where, and that no task is named yet. */
function requestFor(source: string | undefined, where: string): string {
  const what =
    source === 'compact'
      ? 'Session compacted: the conversation so far was summarized, and these rules and skills apply as before.'
      : source === 'resume'
        ? 'Session resumed.'
        : source === 'clear'
          ? 'Session cleared.'
          : 'Session started.';
  return `${what} Working directory: ${where}. No task is named yet: read this before you plan.`;
}
