/**
 * @module tasks/task-request
 * What every trigger (REST API, GitHub webhook, Slack command, CLI) turns its input into, and
 * what a Task Durable Object persists as its durable objective.
 */
import { z } from 'zod';
import { ORIGINS } from '../context/provider.ts';
import { isSkillName, normaliseSkillName, skillNameProblems } from '../lib/skill-names.ts';
import { normalisePath } from '../sources/paths.ts';

const COMMIT = z.string().regex(/^[0-9a-f]{40}$/, 'must be a 40-hex commit');

/** A working directory inside the repository, normalised (`''` is the root); escapes are refused. */
export const WorkingDirectorySchema = z
  .string()
  .max(1024)
  .transform((value, ctx) => {
    const normal = normalisePath(value);
    if (normal.ok) return normal.path;
    ctx.addIssue({ code: 'custom', message: normal.reason });
    return z.NEVER;
  });

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
export const SkillNameSchema = z
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
  });

/** `owner/name` (GitHub source) or an http(s) git URL (isomorphic-git source). */
export const RepoSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(512)
  .refine((repo) => /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(repo) || /^https?:\/\/[^\s]+$/.test(repo), {
    message: 'must be owner/name or an http(s) git URL',
  });

/** A repository as it may be shown back: a git URL loses its user and password. */
export function displayRepo(repo: string): string {
  if (!/^https?:\/\//i.test(repo)) return repo;
  try {
    const url = new URL(repo);
    if (url.username === '' && url.password === '') return repo;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return repo;
  }
}

/** Whether a git URL's host matches the allowlist (`host` or `*.suffix`); an empty list allows all. */
export function gitHostAllowed(repo: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const host = new URL(repo).hostname.toLowerCase();
  return allowed.some((pattern) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern));
}

export const NotifySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('github-check'),
    installationId: z.number().int().positive(),
    owner: z.string().min(1),
    repo: z.string().min(1),
    headSha: COMMIT,
  }),
  z.object({ kind: z.literal('slack'), responseUrl: z.url() }),
]);
export type Notify = z.infer<typeof NotifySchema>;

/** Bounds of the pull request evidence a task keeps; triggers cut to them rather than refuse. */
export const PULL_REQUEST_LIMITS = { maxTitle: 1_024, maxBody: 8_000, maxLabels: 100, maxLabel: 100, maxRef: 256 } as const;

const Count = z.number().int().nonnegative();

/**
 * The pull request a task is about, as the trigger saw it. Everything but the numbers and
 * commits is the author's text: evidence for the task-facts provider, never instructions.
 * Tasks stored before the title, body, author, labels, draft state, head ref and totals were
 * kept have only number, url, base ref, head commit and fork flag.
 */
export const PullRequestEvidenceSchema = z.object({
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
});
export type PullRequestEvidence = z.output<typeof PullRequestEvidenceSchema>;

export const TaskRequestSchema = z.object({
  origin: z.enum(ORIGINS),
  /** Who owns the task: `api:<name>`, `github:<installation id>`, `slack:<team id>`. */
  tenant: z.string().min(1).max(200),
  repo: RepoSchema,
  /** Branch, tag or commit to resolve once at assembly; ignored when `baseCommit` is set. */
  ref: z.string().min(1).max(256).optional(),
  /** Already-pinned commit rules and skills are read at (a pull request's base). */
  baseCommit: COMMIT.optional(),
  cwd: WorkingDirectorySchema.default(''),
  request: z.string().trim().min(1, 'must not be empty').max(20_000),
  agent: z.string().min(1).max(64).default('entry'),
  trusted: z.boolean().default(true),
  skills: z.array(SkillNameSchema).max(32).default([]),
  /** The GitHub App installation whose token reads an `owner/name` repository (else GITHUB_TOKEN). */
  githubInstallationId: z.number().int().positive().optional(),
  parentTaskId: z.string().regex(/^[0-9a-f]{64}$/, 'must be a task id').optional(),
  pullRequest: PullRequestEvidenceSchema.optional(),
  notify: NotifySchema.optional(),
});
export type TaskRequest = z.output<typeof TaskRequestSchema>;
export type TaskRequestInput = z.input<typeof TaskRequestSchema>;

export const TASK_STATUSES = ['pending', 'assembling', 'ready', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** What the Worker needs from the task store; triggers and routes depend on this, not on the Durable Object. */
export interface TaskService {
  /**
   * Persists the task and schedules assembly. With an idempotency key (e.g. a webhook delivery
   * id) a repeated call returns the first task and schedules nothing new.
   */
  create(request: TaskRequestInput, options?: { idempotencyKey?: string }): Promise<{ id: string; status: TaskStatus; created: boolean }>;
}
