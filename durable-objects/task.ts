/**
 * @module durable-objects/task
 * One Durable Object per Task: the SQLite ledger of its objective, transcript and per-turn
 * context. Creating a task persists it, arms an alarm and begins assembling turn 0 without holding
 * the caller; the alarm joins that attempt and is its at-least-once backstop (idempotent), with
 * bounded retries, then arms retention cleanup.
 * Every RPC takes the caller (a tenant, or a person with the repository GitHub said they may read:
 * auth/task-caller) and answers `not-found` for a task that caller may not see. What it reads and
 * assembles with in a deployment is wired in task-wiring.
 */
import type { TaskWiring } from './task-wiring.ts';
import { TaskTokenAhead } from './task-token-ahead.ts';
import { getConfig } from '../src/env.ts';
import { oncePromise } from '../src/lib/once-promise.ts';
import { DurableObject } from 'cloudflare:workers';
import type { AgentConfig } from '../src/context/agents.ts';
import type { MailboxPost, TaskRequestInput } from '../src/tasks/task-request.ts';
import type { ClientName } from '../src/context/client.ts';
import { REPORT_CLIENTS } from '../src/context/report-clients.ts';
import type { AppendResult, CheckResultRpc, FocusPost, FocusResult, FreshnessResult, MailboxResult, RulesMatrixResult, SkillCatalogResult, SkillFileResult, SkillReadResult, SourceReadResult, TaskDescription, TurnResult, UsageResult } from '../src/tasks/task-results.ts';
import type { UsageReport } from '../src/tasks/turn-usage.ts';
import type { CheckRequestInput } from '../src/checks/check-request.ts';
import { CheckLogStore } from './check-log.ts';
import type { TranscriptItem } from '../src/context/transcript.ts';
import type { InspectAccess, InspectOptions, InspectResult } from '../src/tasks/inspection.ts';
import { taskIndexStub } from '../src/tasks/durable-task-index.ts';
import { mayReadTask, ownsTask, type TaskCaller } from '../src/auth/task-caller.ts';
import { describeTask } from './task-description.ts';
import { inspectTask, linkRefusal } from './task-inspection.ts';
import { TaskListings } from './task-listings.ts';
import { durablePullRequestIndex } from '../src/tasks/durable-pull-request-index.ts';
import { FocusLog } from './focus-log.ts';
import { postFocus } from './focus-post.ts';
import { Mailbox } from './mailbox.ts';
import { recordUsage } from './usage-record.ts';
import { migrate } from './task-schema.ts';
import { TaskStore, type TaskRow } from './task-store.ts';
import { beginTurn, storedTurn } from './turn-begin.ts';
import { appendClientItems } from './client-items.ts';
import { FirstTurnAttempts } from './first-turn-attempts.ts';
import { pendingIntakeEntry } from './intake-pending.ts';
import { TaskCreation, type CreateOptions, type CreateResult } from './task-create.ts';
import { readinessOf, type TaskReadiness } from './task-readiness.ts';
import { TaskOutcome } from './task-outcome.ts';

export type { CreateOptions, CreateResult } from './task-create.ts';
type Denied = { status: 'not-found' };

export class TaskObject extends DurableObject<Env> {
  readonly #store: TaskStore;
  readonly #mailbox: Mailbox;
  readonly #focus: FocusLog;
  readonly #listings: TaskListings;
  readonly #checks: CheckLogStore;
  readonly #attempts: FirstTurnAttempts;
  readonly #creation: TaskCreation;
  /** Callers of `describe` waiting for the task to settle; answered as it settles (task-outcome). */
  readonly #readiness: TaskReadiness;
  /** The installation token's exchange the attempt began before its wiring loaded, until its assembly takes it. */
  readonly #ahead = new TaskTokenAhead();
  /** The final status, then what the finished task owes: its report, its listings. */
  readonly #outcome: TaskOutcome;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#readiness = readinessOf(ctx);
    this.#store = new TaskStore(ctx.storage.sql);
    this.#mailbox = new Mailbox(ctx.storage.sql, this.#store);
    this.#focus = new FocusLog(ctx.storage.sql);
    this.#listings = new TaskListings(ctx.storage.sql, { tenant: (tenant) => taskIndexStub(env, tenant), pullRequest: () => durablePullRequestIndex(env) });
    this.#checks = new CheckLogStore(ctx.storage.sql);
    // Synchronous, so no call can come before it and no blockConcurrencyWhile is needed.
    migrate(ctx.storage.sql);
    this.#outcome = new TaskOutcome({
      sql: ctx.storage.sql,
      store: this.#store,
      readiness: this.#readiness,
      storage: ctx.storage,
      report: async (task, outcome) => (await this.#wiring()).report(task, outcome),
      requestOut: () => this.#attempts.nextRequest(),
      listings: this.#listings,
    });
    // A finished task that owes something (its report or a listing: stored before the index
    // existed, or cut off before it was sent) catches up from its alarm.
    const task = this.#store.task();
    if (task && (task.status === 'ready' || task.status === 'failed') && this.#outcome.behind()) void ctx.blockConcurrencyWhile(() => ctx.storage.setAlarm(Date.now()));
    this.#attempts = new FirstTurnAttempts({
      store: this.#store,
      ledger: async () => (await this.#wiring()).ledger,
      ahead: () => this.#ahead.begin(this.#store, this.env),
      setAlarm: (at) => ctx.storage.setAlarm(at),
      finish: (status, reason) => this.#outcome.finish(status, reason),
      reportToIndex: () => this.#reportToIndex(),
      writesDone: () => this.#writesDone(),
    });
    this.#creation = new TaskCreation({
      id: ctx.id.toString(),
      store: this.#store,
      listings: this.#listings,
      retentionDays: () => getConfig(env).TASK_RETENTION_DAYS,
      setAlarm: (at) => ctx.storage.setAlarm(at),
      reportToIndex: () => this.#reportToIndex(),
      startFirstTurn: () => this.#attempts.start(),
      pendingEntry: () => pendingIntakeEntry(env, ctx.id.toString()),
      ahead: (request) => this.#ahead.early(request, this.env),
    });
  }

  /**
   * What the task does with the world (task-wiring), loaded and built when first needed: creating
   * a task, describing it, its mailbox and its turns' reads neither evaluate the assembly code nor
   * build a registry and an assembler they never use. The configuration is read without it
   * (getConfig keeps one parse per set of values): tenant checks and links need nothing more. A
   * load that fails is tried again by the next call.
   */
  readonly #wiring: () => Promise<TaskWiring> = oncePromise(() =>
    import('./task-wiring.ts').then((module) =>
      module.wireTask(this.env, {
        store: this.#store,
        focus: this.#focus,
        checks: this.#checks,
        ahead: () => this.#ahead.take(),
        requested: () => this.#attempts.requestSent(),
      }),
    ),
  );

  /** `agent`: the configuration the task service resolved for it (task-agent), kept with the task for all its turns. */
  async create(input: TaskRequestInput, agent: AgentConfig, options: CreateOptions = {}): Promise<CreateResult> {
    return this.#creation.create(input, agent, options);
  }

  /**
   * A trigger's delivery as its intake shard stored it: `create`'s arguments as JSON text, read
   * here once and not before (the shard only carries it), with their schema all the same: the
   * Worker that wrote it may be another version of this code (task-create).
   */
  async createFromIntake(text: string): Promise<{ refused: string | null }> {
    return this.#creation.fromIntake(text);
  }

  /**
   * The task's repository as it was named (`request.repo`), for the caller to ask GitHub about
   * before it calls as a person (auth/task-access); nothing else of the task.
   */
  async repository(): Promise<{ status: 'ok'; repo: string } | Denied> {
    const task = await this.#current();
    return task ? { status: 'ok', repo: task.request.repo } : { status: 'not-found' };
  }

  /**
   * `waitMs`: how long to wait for a task that is not `ready` or `failed` yet to become so (at most
   * MAX_TASK_WAIT_SECONDS); the answer comes as soon as it does, or at the bound with the task as it is.
   */
  async describe(caller: TaskCaller, options: { waitMs?: number } = {}): Promise<TaskDescription | Denied> {
    const task = await this.#readable(caller);
    if (!task) return { status: 'not-found' };
    if (task.status === 'ready' || task.status === 'failed' || !options.waitMs) return this.#describe(task);
    await this.#readiness.wait(options.waitMs);
    // Read again: it settled, or it is as the bound found it (or, past its retention, gone).
    const now = this.#store.task();
    return now ? this.#describe(now) : { status: 'not-found' };
  }

  /** The task, its turns and its transcript for the inspector page; a link is checked against this task's id. */
  async inspect(access: InspectAccess, options: InspectOptions = {}): Promise<InspectResult> {
    if ('link' in access) {
      const { VIEW_LINK_SECRET: current, VIEW_LINK_SECRET_PREVIOUS: previous } = getConfig(this.env);
      const refused = await linkRefusal({ current, previous }, this.ctx.id.toString(), access.link, Date.now());
      if (refused) return refused;
    }
    const task = 'link' in access ? await this.#current() : await this.#readable(access.tenant);
    if (!task) return { status: 'not-found' };
    const inspection = inspectTask(this.#store, this.#describe(task));
    if (!options.freshness) return { status: 'ok', inspection };
    const checked = await (await this.#wiring()).readBack(task);
    const freshness = checked.status === 'ok' ? { status: 'checked' as const, report: checked.report } : { status: 'unavailable' as const, reason: checked.message };
    return { status: 'ok', inspection: { ...inspection, freshness } };
  }

  #describe(task: TaskRow): TaskDescription {
    return describeTask(task, this.#store, this.#mailbox.summary(), this.#checks.log());
  }

  async beginTurn(caller: TaskCaller, turn: number): Promise<TurnResult> {
    const task = await this.#owned(caller);
    return task ? beginTurn(task, turn, { store: this.#store, attempts: this.#attempts, ledger: async () => (await this.#wiring()).ledger, writesDone: () => this.#writesDone() }) : { status: 'not-found' };
  }

  async readTurn(caller: TaskCaller, turn: number): Promise<TurnResult> {
    return (await this.#readable(caller)) ? storedTurn(this.#store, turn) : { status: 'not-found' };
  }

  /** Items of the turn the client is in, all or nothing (client-items). */
  async append(caller: TaskCaller, items: TranscriptItem[]): Promise<AppendResult> {
    const task = await this.#owned(caller);
    return task ? appendClientItems(this.#store, task, items) : { status: 'not-found' };
  }

  /** Appends a follow-up to the transcript and records it on the objective; idempotent by `post.key`. */
  async mailbox(caller: TaskCaller, post: MailboxPost): Promise<MailboxResult> {
    const task = await this.#owned(caller);
    if (!task) return { status: 'not-found' };
    if (task.status === 'failed') return { status: 'conflict', message: `the task failed (${task.status_reason ?? 'no reason'}); a follow-up would never be read: start a new task` };
    return this.#mailbox.post(post, Date.now());
  }

  /**
   * Records focus for the next turn to begin: paths the agent works in now, skills it asks for.
   * Idempotent: what the task follows already is a duplicate and changes nothing.
   */
  async focusOn(caller: TaskCaller, post: FocusPost): Promise<FocusResult> {
    const task = await this.#owned(caller);
    return task ? postFocus(task, this.#store, this.#focus, post, Date.now()) : { status: 'not-found' };
  }

  /**
   * Records what the model API reported for turn `turn`'s request. Once per turn: the same report
   * again answers the recorded one (a retried post), a different one is a conflict.
   */
  async reportUsage(caller: TaskCaller, turn: number, report: UsageReport): Promise<UsageResult> {
    const task = await this.#owned(caller);
    return task ? recordUsage(this.#store, task, turn, report, Date.now()) : { status: 'not-found' };
  }

  /** What changed since the task was pinned, for every source that reached the model; reads only. */
  async freshness(caller: TaskCaller): Promise<FreshnessResult> {
    // A read-back is a read: tenants granted the owner may ask too.
    return this.#read(caller, (task, wiring) => wiring.readBack(task));
  }

  /** A skill of the task's index at its commit, read whole, with its bundled files; reads only. */
  async readSkill(caller: TaskCaller, name: string): Promise<SkillReadResult> {
    return this.#read(caller, (task, wiring) => wiring.readSkill(task, name));
  }

  /** The skills the MCP skills extension serves of this task, at its commit, ranked for it; reads only. */
  async skillCatalog(caller: TaskCaller): Promise<SkillCatalogResult> {
    return this.#read(caller, (task, wiring) => wiring.skillCatalog(task));
  }

  /** One file of a skill this task serves, byte for byte; reads only. */
  async readSkillFile(caller: TaskCaller, path: string): Promise<SkillFileResult> {
    return this.#read(caller, (task, wiring) => wiring.readSkillFile(task, path));
  }

  /** A rules or skill file the task was given, at the commit it was read at; reads only. */
  async readSource(caller: TaskCaller, path: string): Promise<SourceReadResult> {
    return this.#read(caller, (task, wiring) => wiring.readSource(task, path));
  }

  /**
   * The rules matrix for `paths` at the task's commit (MCP `rules_for_paths`), for `clients`, else
   * the clients the rules settings name, else every client; reads only.
   */
  async rulesFor(caller: TaskCaller, paths: readonly string[], clients?: readonly ClientName[]): Promise<RulesMatrixResult> {
    return this.#read(caller, (task, wiring) => wiring.rules(task, { paths, clients, defaultClients: REPORT_CLIENTS }));
  }

  /**
   * Reads what one consequential action depends on (push, report-ci, merge, apply-knowledge) and
   * records the answer. A read of the world, so granted tenants may ask too; it never touches the
   * transcript or a turn.
   */
  async check(caller: TaskCaller, input: CheckRequestInput): Promise<CheckResultRpc> {
    return this.#read(caller, (task, wiring) => wiring.check(task, input));
  }

  /** A read of the world for a caller who may read the task (`#readable`), made by the wiring; `not-found` for anyone else. */
  async #read<T>(caller: TaskCaller, read: (task: TaskRow, wiring: TaskWiring) => Promise<T>): Promise<T | Denied> {
    const task = await this.#readable(caller);
    return task ? read(task, await this.#wiring()) : { status: 'not-found' };
  }

  override async alarm(): Promise<void> {
    const task = this.#store.task();
    if (!task) return;
    if (task.status === 'pending' || task.status === 'assembling') {
      await this.#attempts.fromAlarm();
      return;
    }
    if (Date.now() >= task.expires_at) {
      await this.ctx.storage.deleteAll();
      migrate(this.ctx.storage.sql);
      return;
    }
    await this.#outcome.catchUp();
  }

  /** The cache writes of the assemblies so far, done (task-wiring); nothing to wait for when the wiring cannot load. */
  #writesDone(): Promise<void> {
    return this.#wiring().then((wiring) => wiring.writesDone(), () => undefined);
  }

  /** Brings the task's listings up to date (task-listings); false when one failed (the alarm retries). */
  async #reportToIndex(): Promise<boolean> {
    const task = this.#store.task();
    return task ? this.#listings.report(task) : true;
  }

  /** The task, created from its intake shard's entry when a caller comes first (task-create). */
  #current(): Promise<TaskRow | undefined> {
    return this.#creation.current();
  }

  async #owned(caller: TaskCaller): Promise<TaskRow | undefined> {
    const task = await this.#current();
    return task && ownsTask(caller, task.request) ? task : undefined;
  }

  /** The task when `caller` owns it, was granted its owner (`TENANT_GRANTS`) or, as a person, may read its repository: reading only. */
  async #readable(caller: TaskCaller): Promise<TaskRow | undefined> {
    const task = await this.#current();
    return task && mayReadTask(getConfig(this.env).TENANT_GRANTS, caller, task.request) ? task : undefined;
  }
}
