/**
 * @module cli/mcp-local
 * The tools of `groundwork mcp` over repositories on this machine: the CLI's own assembly
 * (cli/local-turn, the pipeline `groundwork context` runs), tasks kept in this process's memory
 * for as long as it runs. A local task has turn 0 only (later turns and the mailbox belong to a
 * task on a service, and cli/mcp-local-tools does not offer them); its checks before pushing or
 * reporting CI are `groundwork check`'s (cli/local-checks). Knowledge goes to `--service` when
 * one is given (cli/mcp-knowledge).
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { AgentConfig } from '../context/agents.ts';
import { clientOf } from '../context/client.ts';
import { formatRequest } from '../context/formats/format.ts';
import { promptFromTurn } from '../context/formats/prompt.ts';
import type { Registry } from '../context/registry.ts';
import type { RuleSetReader } from '../context/rule-set.ts';
import type { AssembledTurn } from '../context/turn-schema.ts';
import { checkLine } from '../checks/describe.ts';
import { checkFreshness } from '../freshness/check.ts';
import { trackedSources, turnSources } from '../freshness/tracked.ts';
import { freshnessAnswer, turnAnswer } from '../mcp/answers.ts';
import { refusal, type GroundworkBackend, type ListedResource, type ResourceAnswer } from '../mcp/backend.ts';
import { skillAnswer } from '../mcp/skill-answer.ts';
import { rulesAnswer } from '../mcp/rules-answer.ts';
import { RULES_DEFAULTS, RulesConfigSchema } from '../providers/rules/config.ts';
import { rulesMatrix } from '../providers/rules/rules-matrix.ts';
import type { SkillsBackend } from '../mcp/skill-entries.ts';
import { turnUri } from '../mcp/uris.ts';
import { SKILLS_DEFAULTS } from '../providers/skills/config.ts';
import { readSkill } from '../providers/skills/read-skill.ts';
import { narrowTools, resolveAgent, type AgentCatalog } from '../context/agent-catalog.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import { jsonOutput } from './json-output.ts';
import { assembleLocalTurn, localProviders, localRuleSets } from './local-turn.ts';
import { LOCAL_CHECK_ACTIONS, localCheck } from './local-checks.ts';
import { githubRepositoryOf } from './local-upstream.ts';
import { localKnowledgeTools, type KnowledgeService } from './mcp-knowledge.ts';
import { openLocalRepository, type OpenedLocal } from './open-local.ts';

export interface LocalBackendOptions {
  registry: Registry;
  agents: AgentCatalog;
  service?: KnowledgeService;
  now?: () => number;
  /** Where `check_before` reads GITHUB_TOKEN and GITHUB_API_URL (the process environment). */
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
}

interface LocalTask {
  opened: Extract<OpenedLocal, { ok: true }>;
  snapshot: Snapshot;
  ref: string;
  turn: AssembledTurn;
  trusted: boolean;
  agent: AgentConfig;
  /** The task's rule set at any commit, which freshness diffs (absent for an untrusted task). */
  ruleSets?: RuleSetReader;
}

/** How many tasks one server keeps; the oldest goes first. */
const MAX_TASKS = 50;
const FRESHNESS_DEADLINE_MS = 60_000;
const READ_DEADLINE_MS = 20_000;
const ON_SERVICE = 'not available locally: a task of the local server has turn 0 only; later turns and the mailbox belong to a task on a Groundwork service (its remote /mcp)';

/** Everything but the skills extension, which serves the working repository (cli/mcp-skills). */
export function localBackend(options: LocalBackendOptions): Omit<GroundworkBackend, keyof SkillsBackend> {
  const tasks = new Map<string, LocalTask>();
  const noTask = (id: string) => refusal(`no task ${id} in this groundwork mcp process: check the id assemble_context answered (tasks last as long as the process)`, { taskId: id, status: 'not-found' });
  const knowledge = localKnowledgeTools(options.service, options.now);

  return {
    ...knowledge,
    async assembleContext(args) {
      if (!args.repo.startsWith('file:///')) return refusal(`repo: the local server reads repositories on this machine: name one as file:///path/to/repo (${args.repo} is for a Groundwork service's /mcp)`, { status: 'bad_request' });
      const found = resolveAgent(args.agent, options.agents);
      if (!found.ok) return refusal(`agent: ${found.error}`, { status: 'bad_request' });
      const narrowed = narrowTools(found.agent, args.tools);
      if (!narrowed.ok) return refusal(`tools[${narrowed.index}]: ${narrowed.error}`, { status: 'bad_request' });
      const ref = args.commit ?? args.ref ?? 'HEAD';
      const opened = await openLocalRepository({ repo: fileURLToPath(args.repo), ref, cwd: args.cwd, readTree: args.trusted });
      if (!opened.ok) return refusal(opened.error.startsWith('--cwd: ') ? `cwd: ${opened.error.slice(7)}` : `repo: ${opened.error}`, { status: 'failed' });
      const snapshot = opened.source.snapshot(opened.commit);
      const local = { registry: options.registry, agent: localProviders(narrowed.agent, options.registry), opened, snapshot, ref, request: args.request, paths: args.paths, skills: args.skills, trusted: args.trusted, settings: {}, facts: args.facts ?? [], client: clientOf(args.client) };
      const turn = await assembleLocalTurn(local);
      const id = randomBytes(32).toString('hex');
      const ruleSets = localRuleSets(local);
      tasks.set(id, { opened, snapshot, ref, turn, trusted: args.trusted, agent: narrowed.agent, ...(ruleSets ? { ruleSets } : {}) });
      if (tasks.size > MAX_TASKS) tasks.delete(tasks.keys().next().value ?? id);
      const answer = turnAnswer(turn, { taskId: id });
      return opened.warnings.length === 0 ? answer : { ...answer, text: `${answer.text}\n${opened.warnings.map((warning) => `(warning: ${warning})`).join('\n')}` };
    },

    async getTurn(args) {
      const task = tasks.get(args.taskId);
      if (!task) return noTask(args.taskId);
      if (args.turn !== 0) return refusal(`turn ${args.turn}: ${ON_SERVICE}`, { taskId: args.taskId, status: 'not-available' });
      if (args.format === undefined) return turnAnswer(task.turn, { taskId: args.taskId });
      const body = formatRequest(args.format, await promptFromTurn(task.turn)).body;
      return { text: jsonOutput(body), structured: { taskId: args.taskId, turn: 0, format: args.format, digest: task.turn.digest, body } };
    },

    async checkFreshness(args) {
      const task = tasks.get(args.taskId);
      if (!task) return noTask(args.taskId);
      const { source, commit } = task.opened;
      const report = await checkFreshness({ source, commit, pinned: task.snapshot, target: task.ref, sources: turnSources(task.turn), ...(task.ruleSets ? { ruleSets: task.ruleSets } : {}), deadlineMs: FRESHNESS_DEADLINE_MS, now: options.now ?? Date.now });
      return freshnessAnswer(args.taskId, report);
    },

    async checkBefore(args) {
      const task = tasks.get(args.taskId);
      if (!task) return noTask(args.taskId);
      const { action } = args;
      if (action !== 'push' && action !== 'report-ci') return refusal(`action: ${action} belongs to a task on a Groundwork service; a local task checks ${LOCAL_CHECK_ACTIONS.join(' and ')}`, { taskId: args.taskId, status: 'bad_request' });
      let opened = task.opened;
      if (args.commit !== undefined && args.commit !== opened.commit) {
        const resolved = await opened.source.resolve(args.commit);
        if (resolved.status !== 'ok') return refusal(`commit: ${args.commit} is not a commit of ${opened.root}`, { taskId: args.taskId, status: 'bad_request' });
        opened = { ...opened, commit: resolved.commit };
      }
      const github = action === 'report-ci' ? await githubRepositoryOf(opened.root, args.branch) : undefined;
      const result = await localCheck({
        action,
        opened,
        branch: args.branch,
        github,
        env: options.env ?? process.env,
        now: options.now ?? Date.now,
        githubHint: "the server reads the repository's GitHub remote (origin, or the branch's upstream remote), and this repository has none on github.com",
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      return { text: [checkLine(result), ...result.reasons.slice(1).map((reason) => `- ${reason}`)].join('\n'), structured: { taskId: args.taskId, ...result } };
    },
    postFollowup: (args) => Promise.resolve(tasks.has(args.taskId) ? refusal(ON_SERVICE, { taskId: args.taskId, status: 'not-available' }) : noTask(args.taskId)),

    async readSkill(args) {
      const task = tasks.get(args.taskId);
      if (!task) return noTask(args.taskId);
      if (!task.trusted) return refusal('the task is untrusted: it reads no repository content, so no skill is read for it', { taskId: args.taskId, status: 'conflict' });
      const cwd = task.opened.cwd;
      const scope = cwd === '' ? { configured: true } : { configured: true, chain: { targets: [cwd], label: `the working directory ${cwd}` } };
      const read = await readSkill(task.snapshot, SKILLS_DEFAULTS, scope, args.name, AbortSignal.timeout(READ_DEADLINE_MS));
      if (!read.ok) return refusal(`read_skill ${args.name}: ${read.reason}`, { taskId: args.taskId, status: 'missing' });
      const { ok: _ok, ...skill } = read;
      return skillAnswer(args.taskId, skill);
    },

    async rulesForPaths(args) {
      const task = tasks.get(args.taskId);
      if (!task) return noTask(args.taskId);
      if (!task.trusted) return refusal('rules_for_paths: the task is untrusted: it reads no repository content, so no rule file is read for it', { taskId: args.taskId, status: 'skipped' });
      const effective = task.turn.settings?.providers.find((provider) => provider.name === 'rules');
      if (effective && !effective.enabled) return refusal('rules_for_paths: the rules provider is off for this task', { taskId: args.taskId, status: 'skipped' });
      const config = RulesConfigSchema.safeParse(effective?.config ?? {});
      try {
        const matrix = await rulesMatrix(task.snapshot, { cwd: task.opened.cwd, paths: args.paths, ...(args.clients ? { clients: args.clients } : {}), config: config.success ? config.data : RULES_DEFAULTS, signal: AbortSignal.timeout(READ_DEADLINE_MS) });
        return rulesAnswer(args.taskId, matrix);
      } catch (error) {
        // A read of this machine's repository that failed or ran out of time: said, never an empty matrix.
        return refusal(`rules_for_paths: reading the rule files at ${task.opened.commit} failed: ${error instanceof Error ? error.message : String(error)}`, { taskId: args.taskId, status: 'failed' });
      }
    },

    listTurns(): Promise<ListedResource[]> {
      return Promise.resolve(
        [...tasks].map(([id, task]) => ({ uri: turnUri(id, 0), name: `task ${id.slice(0, 12)} turn 0`, title: `${task.opened.root}: ${task.turn.repository ?? ''}`.slice(0, 120), mimeType: 'application/json' })),
      );
    },

    readTurn(taskId: string, turn: number): Promise<ResourceAnswer> {
      const task = tasks.get(taskId);
      if (!task) return Promise.resolve({ ok: false, message: `no task ${taskId} in this process` });
      if (turn !== 0) return Promise.resolve({ ok: false, message: `turn ${turn} of task ${taskId}: ${ON_SERVICE}` });
      return Promise.resolve({ ok: true, mimeType: 'application/json', text: jsonOutput(task.turn), meta: { digest: task.turn.digest, commit: task.turn.commit } });
    },

    // A local task has turn 0 only, and read what its turn's entries name.
    taskTurns: (taskId: string) => Promise.resolve(tasks.has(taskId) ? [0] : []),
    taskSourcePaths: (taskId: string) => Promise.resolve(tasks.has(taskId) ? trackedSources(tasks.get(taskId)?.turn.entries ?? []).flatMap((source) => (source.kind === 'file' ? [source.path] : [])) : []),

    async readSource(taskId: string, path: string): Promise<ResourceAnswer> {
      const task = tasks.get(taskId);
      if (!task) return { ok: false, message: `no task ${taskId} in this process` };
      // Only what the task was given: the resource is "a file the task read", not any file.
      const given = trackedSources(task.turn.entries).some((source) => source.path === path);
      if (!given) return { ok: false, message: `${path}: task ${taskId} read no such rules or skill file` };
      const read = await task.snapshot.read(path, { maxBytes: 512 * 1024, signal: AbortSignal.timeout(READ_DEADLINE_MS) });
      if (read.status !== 'ok') return { ok: false, message: `${path} at ${task.opened.commit}: ${read.status === 'failed' ? read.reason : read.status}` };
      return { ok: true, mimeType: 'text/markdown', text: read.text, meta: { path, revision: task.opened.commit, blob: read.blob, truncated: read.truncated } };
    },
  };
}

