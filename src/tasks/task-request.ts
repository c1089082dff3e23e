/**
 * @module tasks/task-request
 * What every trigger (REST API, GitHub webhook, Slack command, CLI) turns its input into, and
 * what a Task Durable Object persists as its durable objective.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { FOCUS_LIMITS } from '../context/focus.ts';
import { AGENT_LIMITS, ToolSchema } from '../context/agents.ts';
import { ClientSchema } from '../context/client-schema.ts';
import { HostFactsSchema } from '../context/host-facts.ts';
import { ORIGINS } from '../context/provider.ts';
import { isSkillName, normaliseSkillName, skillNameProblems } from '../lib/skill-names.ts';
import { TaskSettingsSchema } from '../providers/settings.ts';
import { isValidRefName } from '../sources/git/ref-name.ts';
import { LoginSchema, parseFullName, RepoNameSchema } from '../sources/github/repo-name.ts';
import { parseRemoteUrl } from '../sources/git/remote-url.ts';
import { normalisePath } from '../sources/paths.ts';

const COMMIT = lazySchema(() => z.string().regex(/^[0-9a-f]{40}$/, 'must be a 40-hex commit'));

/** A working directory inside the repository, normalised (`''` is the root); escapes are refused. */
export const WorkingDirectorySchema = lazySchema(() => z
  .string()
  .max(1024)
  .transform((value, ctx) => {
    const normal = normalisePath(value);
    if (normal.ok) return normal.path;
    ctx.addIssue({ code: 'custom', message: normal.reason });
    return z.NEVER;
  }));

/**
 * A focus path: a file or directory the task touches, named from the repository root. Normalised
 * like the working directory, and stricter: no `..` anywhere, since a path that climbs is a
 * mistake even when it lands inside the tree. `''` and `.` name the root, whose rules every task
 * gets: accepted, and dropped from the focus.
 *
 * @example
 * FocusPathSchema.parse('./packages/api/')   // 'packages/api'
 * FocusPathSchema.safeParse('a/../b').success // false
 */
export const FocusPathSchema = lazySchema(() => z
  .string()
  .max(FOCUS_LIMITS.pathChars)
  .transform((value, ctx) => {
    if (value.split('/').includes('..')) {
      ctx.addIssue({ code: 'custom', message: 'must not contain ..: name the path from the repository root' });
      return z.NEVER;
    }
    const normal = normalisePath(value);
    if (normal.ok) return normal.path;
    ctx.addIssue({ code: 'custom', message: normal.reason });
    return z.NEVER;
  }));

/** Focus paths a host names in one request. */
export const FocusPathsSchema = lazySchema(() => z.array(FocusPathSchema).max(FOCUS_LIMITS.named, `at most ${FOCUS_LIMITS.named} paths`));

const SKILL_NAME_RULE = 'a skill name is 1-64 lowercase letters, digits and - (not at either end, never --)';

/**
 * A skill to select: a name as the Agent Skills rule allows it, NFKC-normalised (`навык`, `技能`,
 * a decomposed `café` as the index holds it precomposed), or a path with a `/` naming a skill's
 * directory or SKILL.md, which is how one of two skills sharing a name is picked.
 *
 * @example
 * SkillNameSchema.parse('мой-навык')             // 'мой-навык'
 * SkillNameSchema.parse('./.agents/skills/deploy/') // '.agents/skills/deploy'
 */
export const SkillNameSchema = lazySchema(() => z
  .string()
  .max(1024)
  .transform((value, ctx) => {
    const text = value.trim();
    if (text.includes('/')) {
      const normal = normalisePath(text);
      if (normal.ok && normal.path !== '') return normal.path.includes('/') ? normal.path : `${normal.path}/`;
      ctx.addIssue({ code: 'custom', message: `is not a skill's path: ${normal.ok ? 'it names the repository root' : normal.reason}` });
      return z.NEVER;
    }
    const name = normaliseSkillName(text);
    if (isSkillName(name)) return name;
    const problems = name === '' ? ['is empty'] : skillNameProblems(name).map((problem) => problem.message);
    ctx.addIssue({ code: 'custom', message: `${SKILL_NAME_RULE}, or a path to the skill: ${JSON.stringify(name.slice(0, 80))} ${problems.join(', ')}` });
    return z.NEVER;
  }));

/**
 * An agent-requested rule to give in full: the name the rules index lists it by (its file name
 * without the extension, e.g. `database`), or its path, normalised like a focus path.
 *
 * @example
 * RuleNameSchema.parse('./.cursor/rules/database.mdc') // '.cursor/rules/database.mdc'
 */
export const RuleNameSchema = lazySchema(() => z
  .string()
  .max(1024)
  .transform((value, ctx) => {
    const text = value.trim();
    if (text === '' || /\p{Cc}/u.test(text)) {
      ctx.addIssue({ code: 'custom', message: text === '' ? 'a rule name is not empty' : 'a rule name has no control characters' });
      return z.NEVER;
    }
    if (!text.includes('/')) return text;
    const normal = normalisePath(text);
    if (normal.ok && normal.path !== '') return normal.path;
    ctx.addIssue({ code: 'custom', message: `is not a rule's path: ${normal.ok ? 'it names the repository root' : normal.reason}` });
    return z.NEVER;
  }));

const REPO_SHAPE = 'must be owner/name or an http(s) git URL';

/** True for a repository named by git URL rather than GitHub `owner/name`. */
export const isGitUrl = (repo: string): boolean => /^https?:\/\//i.test(repo);

/** A repository on the machine of a local instance, named as `groundwork context` names it. */
export function isLocalRepo(repo: string): boolean {
  return /^file:\/\/\/[^\0]*$/.test(repo);
}

/** Why `repo` names no repository we can read, or undefined when it names one. */
function repoProblem(repo: string): string | undefined {
  if (isGitUrl(repo)) return gitUrlProblem(repo);
  if (isLocalRepo(repo)) return undefined;
  if (repo.split('/').length !== 2) return REPO_SHAPE;
  const name = parseFullName(repo);
  return name.ok ? undefined : name.reason;
}

/**
 * `owner/name` (GitHub source, checked as GitHub checks names), an http(s) git URL
 * (smart-HTTP git source), or a `file:///` path that this instance serves (LOCAL_REPOSITORIES,
 * set by `groundwork run`).
 */
export const RepoSchema = lazySchema(() => z
  .string()
  .trim()
  .min(1, 'is required')
  .max(512)
  .superRefine((repo, ctx) => {
    const problem = repoProblem(repo);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }));

/** A branch, tag or commit, by git's ref name rules (`..`, `~`, `:` and control characters never pass). */
export const RefSchema = lazySchema(() => z.string().min(1).max(256).refine(isValidRefName, 'must be a branch, tag or commit name'));

/**
 * Why a git URL cannot be read, judged by the parser that will read it, so that everything
 * stored can be read and shown back without its credentials. The URL is not quoted: it may
 * hold a password.
 */
function gitUrlProblem(url: string): string | undefined {
  if (/[\s\x00-\x1f\x7f]/.test(url)) return 'git URL must not contain whitespace or control characters';
  const parsed = parseRemoteUrl(url);
  return parsed.ok ? undefined : parsed.reason.replace(/^remote git URL/, 'git URL');
}

const UNPARSABLE = '(a git URL that does not parse; not shown)';

/**
 * A repository as it may be shown back: a git URL as the identity its source reads (no user,
 * password, query or fragment). A stored URL that does not parse is never shown as written.
 */
export function displayRepo(repo: string): string {
  if (!isGitUrl(repo)) return repo;
  const parsed = parseRemoteUrl(repo);
  return parsed.ok ? parsed.identity : UNPARSABLE;
}

/** Whether a git URL's host matches the allowlist (`host` or `*.suffix`); an empty list allows all. */
export function gitHostAllowed(repo: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  let host: string;
  try {
    host = new URL(repo).hostname.toLowerCase();
  } catch {
    return false;
  }
  return hostAllowed(host, allowed);
}

/** Whether `host` matches the allowlist (`host` or `*.suffix`); an empty list allows all. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const name = host.toLowerCase();
  return allowed.some((pattern) => (pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern));
}

export const NotifySchema = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('github-check'),
    installationId: z.number().int().positive(),
    owner: LoginSchema,
    repo: RepoNameSchema,
    headSha: COMMIT,
  }),
  z.object({ kind: z.literal('slack'), responseUrl: z.url() }),
]));
export type Notify = z.infer<typeof NotifySchema>;

/** Bounds of the pull request evidence a task keeps; triggers cut to them rather than refuse. */
export const PULL_REQUEST_LIMITS = { maxTitle: 1_024, maxBody: 8_000, maxLabels: 100, maxLabel: 100, maxRef: 256 } as const;

const Count = lazySchema(() => z.number().int().nonnegative());

/**
 * The pull request a task is about, as the trigger saw it. Everything but the numbers and
 * commits is the author's text: evidence for the task-facts provider, never instructions.
 * Tasks stored before the title, body, author, labels, draft state, head ref and totals were
 * kept have only number, url, base ref, head commit and fork flag.
 */
export const PullRequestEvidenceSchema = lazySchema(() => z.object({
  number: z.number().int().positive(),
  url: z.url().optional(),
  title: z.string().max(PULL_REQUEST_LIMITS.maxTitle).optional(),
  body: z.string().max(PULL_REQUEST_LIMITS.maxBody).optional(),
  author: z.string().max(PULL_REQUEST_LIMITS.maxRef).optional(),
  labels: z.array(z.string().max(PULL_REQUEST_LIMITS.maxLabel)).max(PULL_REQUEST_LIMITS.maxLabels).optional(),
  draft: z.boolean().optional(),
  baseRef: z.string().max(PULL_REQUEST_LIMITS.maxRef).optional(),
  headRef: z.string().max(PULL_REQUEST_LIMITS.maxRef).optional(),
  headSha: COMMIT,
  /** Head from a fork: its content is untrusted evidence, never a source of rules. */
  fromFork: z.boolean(),
  additions: Count.optional(),
  deletions: Count.optional(),
  changedFiles: Count.optional(),
}));
export type PullRequestEvidence = z.output<typeof PullRequestEvidenceSchema>;

/** Tool names a task narrows its agent's catalog to; each must be one of the agent's (checked against it at creation). */
export const ToolNamesSchema = lazySchema(() => z
  .array(ToolSchema.unwrap().shape.name)
  .max(AGENT_LIMITS.maxTools)
  .transform((names) => [...new Set(names)]));

export const TaskRequestSchema = lazySchema(() => z.object({
  origin: z.enum(ORIGINS),
  /** Who owns the task: `api:<name>`, `github:<installation id>`, `slack:<team id>`. */
  tenant: z.string().min(1).max(200),
  repo: RepoSchema,
  /** Branch, tag or commit to resolve once at assembly; ignored when `baseCommit` is set. */
  ref: RefSchema.optional(),
  /**
   * The commit `ref` already resolved to, when the caller resolved it (the CLI pins locally): the
   * task is pinned there and keeps `ref` as what it named, so freshness follows the branch.
   */
  commit: COMMIT.optional(),
  /** Already-pinned commit rules and skills are read at (a pull request's base). */
  baseCommit: COMMIT.optional(),
  cwd: WorkingDirectorySchema.default(''),
  /** Paths the task touches besides `cwd` (files or directories): their directories' rules are read too. */
  paths: FocusPathsSchema.default([]),
  request: z.string().trim().min(1, 'must not be empty').max(20_000),
  agent: z.string().min(1).max(64).default('entry'),
  /** The coding-agent client that reads the context (`codex`, `claude-code@2.1.332`, …); the rules give only what it does not load itself. Absent: `none`. */
  client: ClientSchema.optional(),
  trusted: z.boolean().default(true),
  skills: z.array(SkillNameSchema).max(32).default([]),
  /** Task settings per provider (same shapes as PROVIDER_CONFIG and `.groundwork.yml`); they take precedence over both. */
  providers: TaskSettingsSchema.optional(),
  /** The GitHub App installation whose token reads an `owner/name` repository (else GITHUB_TOKEN). */
  githubInstallationId: z.number().int().positive().optional(),
  parentTaskId: z.string().regex(/^[0-9a-f]{64}$/, 'must be a task id').optional(),
  pullRequest: PullRequestEvidenceSchema.optional(),
  notify: NotifySchema.optional(),
  /** The origin the creating request reached (e.g. `https://groundwork.example.com`); links posted later are built on it unless PUBLIC_URL is set. */
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** What the host knows about the task's runtime (context/host-facts); the `host` provider renders it as evidence. */
  facts: HostFactsSchema.optional(),
  /** The agent's tools this task is shown, by name: a subset of the agent's catalog, never more (context/agent-catalog). */
  tools: ToolNamesSchema.optional(),
}));
export type TaskRequest = z.output<typeof TaskRequestSchema>;
export type TaskRequestInput = z.input<typeof TaskRequestSchema>;

export const TASK_STATUSES = ['pending', 'assembling', 'ready', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A follow-up for a task's mailbox. */
export interface MailboxPost {
  /** Who sent it, as the host knows them (`@login`, a name); shown to the model. */
  from: string;
  text: string;
  /** Idempotency key, namespaced by the caller (`api:<client id>`, `github-delivery:<guid>`). */
  key?: string;
}
