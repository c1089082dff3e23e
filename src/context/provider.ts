/**
 * @module context/provider
 * The provider contract. A provider is a plain object made by a factory: it declares what it
 * needs (capabilities, turns, time, tokens) and returns entries. Everything it reads arrives in
 * the request; the runner owns gating, timeouts, budgets, ordering and failure isolation.
 *
 * Every entry says what it depends on (`stability`, see entry.ts), which decides where the
 * renderer puts it: `commit` for what every task on the same repository, commit and working
 * directory gets byte for byte (rules, a skills index, a repository inventory); `task`, the
 * default, for anything the task chose or that reads the request (selected skills, pull
 * request facts, memory picked for the request). Commit-stable entries come first in the
 * first user message, so vendors' prompt caches share them across tasks; a `commit` entry
 * must therefore not vary with the request, the task's skills or the clock.
 *
 * @example
 * const hello = defineProvider({
 *   name: 'hello', category: 'system', config: z.object({}), requires: [], turns: 'first',
 *   timeoutMs: 1000, budget: 200,
 *   async run({ task }) {
 *     return [
 *       { title: 'Conventions', body: 'Tabs, not spaces.', source: { uri: 'groundwork:hello' }, freshness: 'volatile', stability: 'commit' },
 *       { title: 'Greeting', body: `Task: ${task.request}`, source: { uri: 'groundwork:hello' }, freshness: 'volatile' },
 *     ];
 *   },
 * });
 */
import type { z } from 'zod';
import type { KeyValueStore } from '../sources/key-value-store.ts';
import type { GitHubApi, PullRequestFilesResult } from '../sources/pull-requests.ts';
import type { ReadPlan } from '../sources/read-plan.ts';
import type { RepositorySource, Snapshot } from '../sources/snapshot.ts';
import type { ClientRef } from './client.ts';
import type { EntryInput, Source, Stability } from './entry.ts';
import type { HostFact } from './host-facts.ts';
import type { KnowledgeReader } from './knowledge.ts';
import type { MissingNotice } from './notices.ts';
import type { ProviderRuleSet, RuleSetReader, RuleSetRequest } from './rule-set.ts';
import type { RuleVerdictInput } from './rule-verdict.ts';
import type { TaskHistoryReader } from './task-history.ts';

/** Render order of categories; the total budget drops material from the end of this order first. */
export const CATEGORIES = ['system', 'rules', 'skills', 'memory'] as const;
export type Category = (typeof CATEGORIES)[number];

/** `tasks:read`: the tenant's earlier tasks on the task's repository (the history provider). */
export const CAPABILITIES = ['repo:read', 'github:api', 'knowledge:read', 'tasks:read'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * `first`: only turn 0. `all`: every turn. `moved`: turn 0, and a later turn only when the host
 * recorded something new for it to follow (`ProviderRequest.moved`: focus paths, names).
 */
export type TurnPolicy = 'first' | 'all' | 'moved';

export const ORIGINS = ['github', 'slack', 'api', 'cli', 'mcp'] as const;
export type Origin = (typeof ORIGINS)[number];

/**
 * The pull request a task is about, as the trigger saw it (webhook payload or one lookup). The
 * head, title, body and labels are the author's: evidence, never instructions.
 */
export interface PullRequestView {
  number: number;
  url?: string;
  title?: string;
  /** The author's description, bounded by the trigger. */
  body?: string;
  /** The author's login. */
  author?: string;
  labels?: readonly string[];
  draft?: boolean;
  baseRef?: string;
  headRef?: string;
  headSha: string;
  fromFork: boolean;
  /** Totals GitHub reported with the pull request, when the payload had them. */
  changedFiles?: number;
  additions?: number;
  deletions?: number;
}

/** What a provider may know about the task. Host-decided fields (trust, agent) are never a repository's claim. */
export interface TaskView {
  request: string;
  origin: Origin;
  /** Repository identity, e.g. `github:github.com/owner/name`; absent for tasks without a repository. */
  repository?: string;
  /**
   * The branch, tag or commit the task named, as named (`HEAD` when it named none), that was
   * resolved to `commit`; absent when the task came pinned (a pull request's base commit).
   */
  ref?: string;
  /** The commit rules and skills are read at (a pull request's trusted base). */
  commit?: string;
  /** The pull request head, evidence only. */
  headCommit?: string;
  /** The head comes from a fork: its content is untrusted evidence. */
  headFromFork?: boolean;
  /** Working directory inside the repository, normalised; `''` is the root. */
  cwd: string;
  /**
   * Paths the task touches besides its working directory (a pull request's changed files, paths
   * the host named), normalised like `cwd`, deduplicated, bounded; `[]` when none.
   */
  focusPaths: readonly string[];
  trusted: boolean;
  /** Skill names the task selected explicitly (`$name` in the request is parsed by the skills provider). */
  skills: readonly string[];
  agent: string;
  /**
   * The coding-agent client that reads the context (context/client), as the host named it; absent
   * is `none`: a host that loads no instruction file itself, so the rules give every one that applies.
   */
  client?: ClientRef;
  /** Set for a task about a pull request (GitHub triggers, Slack `#PR`). */
  pullRequest?: PullRequestView;
  /**
   * What the host that created the task said about its runtime (versions, a devbox, the CI in
   * use): the host's evidence, never instructions; absent or empty when it said nothing.
   */
  facts?: readonly HostFact[];
}

/** Host facts about this run: never a repository's claim, and the same on every retry. */
export interface HostView {
  /** Groundwork's version, from package.json at build time. */
  version: string;
  /** The agent configuration's provider set as the runner applies it, in render order. */
  providers: readonly string[];
  /** Capabilities this run was granted, in `CAPABILITIES` order. */
  capabilities: readonly Capability[];
}

/** An entry that reached the model on an earlier turn, as the turn ledger recorded it (no body). */
export interface EarlierEntry {
  turn: number;
  provider: string;
  category: Category;
  title: string;
  source: Source;
}

/**
 * What the host recorded for a later turn since the previous one began (`POST /tasks/:id/paths`):
 * where the agent moved and what it asked for by name. Empty on turn 0.
 */
export interface Moved {
  /** Focus paths new on this turn; `task.focusPaths` holds them too. */
  paths: readonly string[];
  /** Skills asked for by name (or path) for this turn. */
  skills: readonly string[];
  /** Agent-requested rules asked for by name (or path) for this turn, as the rules index lists them. */
  rules: readonly string[];
}

export const NOT_MOVED: Moved = { paths: [], skills: [], rules: [] };

export interface ProviderRequest<C = unknown> {
  task: TaskView;
  turn: number;
  config: C;
  host: HostView;
  /** What is new on this turn (see `Moved`); `NOT_MOVED` on turn 0 and for hosts without a ledger. */
  moved: Moved;
  /**
   * Which of `task.focusPaths` are known to name files (a pull request's changed files); any other
   * may name a file or a directory, which only the snapshot can tell.
   */
  focusFiles: readonly string[];
  /**
   * The pull request's changed files, listed once by the host for this assembly (up to the larger
   * of what task-facts shows and the focus bound) and handed to every provider, so none lists
   * them again; absent when the task is not about a pull request or the host did not list them
   * (no `github:api` for this task).
   */
  pullRequestFiles?: PullRequestFilesResult;
  /**
   * What reached the model on earlier turns of this task, oldest first; empty on turn 0 and for
   * hosts without a ledger (the CLI). A later-turn provider reads it to tell what is new.
   */
  history: readonly EarlierEntry[];
  /** Present whenever the runner granted `repo:read` (to a provider that requires or uses it). */
  snapshot?: Snapshot;
  /**
   * The repository the snapshot came from, granted with it (`repo:read`), for providers that must
   * look beyond the pinned commit: resolve a ref as it is now, or read another commit (freshness
   * and provenance checks). Reads of the task's own commit go through `snapshot`.
   */
  source?: RepositorySource;
  /** GitHub reads bound to the task's repository, present whenever the runner granted `github:api`. */
  github?: GitHubApi;
  /**
   * The task's rule set at any commit (context/rule-set-reader), granted with `repo:read` when the
   * host built one: what freshness diffs between the pinned commit and the new head.
   */
  ruleSets?: RuleSetReader;
  /** For each capability the provider `uses` but was not given, why (the capability gate's reason). */
  withheld: Partial<Record<Capability, string>>;
  /** Cache for immutable derived facts, keyed by revision. */
  cache?: KeyValueStore;
  /** The task's tenant and repository knowledge; present whenever the runner granted `knowledge:read`. */
  knowledge?: KnowledgeReader;
  /** The tenant's earlier tasks on the task's repository; present whenever the runner granted `tasks:read`. */
  tasks?: TaskHistoryReader;
  /** This provider's token budget; providers may pre-fit, the runner enforces it regardless. */
  budget: number;
  signal: AbortSignal;
  now: () => number;
}

export interface Provider<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly category: Category;
  /**
   * An object of named fields, so that each settings layer can set some of them (see
   * context/settings): the schema, or a `lazySchema` of it (lib/lazy-schema), built only when
   * something must read it (a settings layer names the provider). Either way the host reaches it
   * through context/provider-config, which checks the declaration when the schema is built.
   */
  readonly config: S | z.ZodLazy<S>;
  /**
   * The config a run gets when no settings layer sets a field of it: what `config` gives for `{}`,
   * as a constant, so such a run does not build the schema to learn it. The check of the built
   * schema refuses defaults that differ (key for key, in order); the built-in providers'
   * are held by test/providers/provider-defaults.test.ts. Absent: the host parses `{}` each run.
   */
  readonly defaults?: z.output<S>;
  /**
   * Numeric config fields that bound work, time or memory. The host's value (default or
   * deployment setting) is their cap: repository and task settings may only lower them.
   */
  readonly limits?: readonly (keyof z.output<S> & string)[];
  /**
   * Numeric config fields the host does not cap, each with why that is safe (e.g. "a share of
   * the budget, which is capped"). Every field that holds a number is in `limits` or here: the
   * registry refuses a provider otherwise, so a field added later cannot escape the caps.
   */
  readonly uncapped?: Readonly<Partial<Record<keyof z.output<S> & string, string>>>;
  /** Capabilities without which the provider does not run (`capability-gated`). */
  readonly requires: readonly Capability[];
  /**
   * Capabilities it uses when granted and does without otherwise: it runs either way, gets the
   * matching request fields only when granted, and learns why not in `withheld`.
   */
  readonly uses?: readonly Capability[];
  readonly turns: TurnPolicy;
  readonly timeoutMs: number;
  /** Token budget for this provider's entries, counted by `countTokens`; settings may lower it, never raise it. */
  readonly budget: number;
  /** Orders providers inside a category (ascending, default 100) before their names do. */
  readonly position?: number;
  /**
   * What the host's notice says when this provider ends without delivering (timed out, failed,
   * left out by the budget). Rules, skills and memory have theirs by category.
   */
  readonly missing?: MissingNotice;
  run(request: ProviderRequest<z.output<S>>): Promise<EntryInput[] | ProviderResult>;
  /**
   * What `run` will list and read from the snapshot, said before any provider runs, so the host
   * can have the source fetch it ahead. A hint: `run` must not depend on it.
   */
  plan?(input: PlanRequest<z.output<S>>): ReadPlan;
  /**
   * How many of a pull request's changed files `run` needs in `pullRequestFiles`. The host lists
   * the largest number any provider of the run asks for, once, before the plan is made.
   */
  pullRequestFilesNeeded?(config: z.output<S>): number;
  /**
   * What `run` on turn 0 would find at a snapshot, without rendering or budgets: every instruction
   * file (or skill) it would consider for the task, with its verdict (context/rule-set). Freshness
   * asks it at the pinned commit and at the new head and diffs the two. Reads only the snapshot.
   */
  ruleSet?(request: RuleSetRequest<z.output<S>>): Promise<ProviderRuleSet>;
}

/** What a provider plans its reads from: the parts of its request known before anything is read. */
export interface PlanRequest<C = unknown> {
  task: TaskView;
  config: C;
  /** As `ProviderRequest.focusFiles`. */
  focusFiles: readonly string[];
}

/**
 * Entries plus notes about material the provider left out on purpose (they become the outcome's
 * reason), and host notices the model must read about it.
 */
export interface ProviderResult {
  entries: EntryInput[];
  notes?: string[];
  /**
   * Material the provider knowingly did not give, that the model must not claim to have followed
   * (rules of directories the budget could not hold): each becomes a `<groundwork-notice>` when
   * the provider's outcome is `included` or `empty` (a provider left out whole gets its
   * category's notice instead). Deterministic text only: no durations, no upstream error messages. `commit` when it
   * depends on nothing but the commit, working directory and host settings.
   */
  notices?: Array<{ text: string; stability: Stability }>;
  /** What happened to each instruction file found (see context/rule-verdict). */
  verdicts?: RuleVerdictInput[];
}

/**
 * What a provider declares about its settings, apart from how it runs: the settings layers and
 * their caps (context/settings) read only this, so a host checks a deployment's or a task's
 * settings without loading the providers themselves (each provider's `settings.ts`).
 */
export type ProviderSettings<S extends z.ZodObject = z.ZodObject> = Pick<Provider<S>, 'name' | 'category' | 'position' | 'config' | 'defaults' | 'limits' | 'uncapped' | 'budget'>;

/** Identity helper that keeps the config type flowing from the schema into `run`. */
export function defineProvider<S extends z.ZodObject>(provider: Provider<S>): Provider<S> {
  return provider;
}
