/**
 * @module context/rule-set
 * The rule set of a task at a commit: every file a provider that reads instructions would find
 * for the task's focus (working directory, pull request paths, posted paths) with that commit's
 * settings, each with its verdict (applied, indexed, not applied, shadowed by another file of its
 * directory), and what the provider's settings made it read. A provider computes it without
 * rendering (`Provider.ruleSet`); freshness computes it at the pinned commit and at the new head
 * and diffs the two, so a rule that *now applies* is seen, not only the bodies the model was given.
 *
 * The client dimension (issue 50): when verdicts carry per-client cells (`clients`), they ride
 * along here unchanged, and the diff compares the task's client's cell (freshness/rule-set-diff).
 *
 * @example
 * const found = await registry.get('rules')?.ruleSet?.({ snapshot, task, focusFiles: [], config, signal });
 * found?.files.filter((file) => file.verdict === 'applied') // what would be given at this commit
 */
import type { ReadPlan } from '../sources/read-plan.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import type { TaskView } from './provider.ts';
import type { RuleVerdict } from './rule-verdict.ts';

/** A file as the rule set holds it: its verdict for the task's client, and its row of client cells (`clients`, issue 50). */
export interface RuleSetFile extends RuleVerdict {
  /** What it applies to: the focus a directory file's chain serves (`.` for the root working directory); a skill's root. */
  scope?: readonly string[];
  /** For `shadowed`: the file of its directory that is read instead. */
  by?: string;
}

/** One provider's rule set at one commit. */
export interface ProviderRuleSet {
  files: RuleSetFile[];
  /**
   * What the provider's settings make it read, one short phrase each (`names AGENTS.md, CLAUDE.md`,
   * `claudeRules off`): a settings file that changes them is a change in itself.
   */
  reads: string[];
}

export interface RuleSetRequest<C = unknown> {
  snapshot: Snapshot;
  /** The task, pinned at `snapshot.commit`. */
  task: TaskView;
  /** As `ProviderRequest.focusFiles`. */
  focusFiles: readonly string[];
  config: C;
  signal: AbortSignal;
}

export interface RuleSet {
  commit: string;
  /** Providers in render order; a provider the settings turned off at this commit has no files and says so in `reads`. */
  providers: Array<{ provider: string } & ProviderRuleSet>;
  /** The repository's settings file, when it applied at this commit (`.groundwork.yml@<commit>`). */
  settings?: string;
}

export type RuleSetResult = { status: 'ok'; ruleSet: RuleSet } | { status: 'failed'; reason: string };

/** The rule set of one task at any commit, with the host's settings layers and that commit's own. */
export interface RuleSetReader {
  /** What the rule set reads, so a snapshot of another commit can read it ahead (the same plan turn 0 read with). */
  plan(): ReadPlan;
  at(snapshot: Snapshot, signal: AbortSignal): Promise<RuleSetResult>;
  /**
   * The client the task named (issue 50), whose cell of each file the diff compares besides its
   * verdict: for such a task a change is one in what the client loads itself or what Groundwork
   * gives it. Absent: `none`, Groundwork's own rule set.
   */
  readonly client?: string;
}
