/**
 * @module tasks/task-request
 * What every trigger (REST API, GitHub webhook, Slack command, CLI) turns its input into, and
 * what a Task Durable Object persists as its durable objective.
 */
import { z } from 'zod';
import { ORIGINS } from '../context/provider.ts';
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

export const SkillNameSchema = z.string().regex(/^[a-z0-9-]{1,64}$/, 'skill names are 1-64 chars of a-z, 0-9 and -');

/**
 * `owner/name` (GitHub source), an http(s) git URL (isomorphic-git source), or a `file:///` path
 * that this instance serves (LOCAL_REPOSITORIES, set by `groundwork run`).
 */
export const RepoSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(512)
  .refine((repo) => /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(repo) || /^https?:\/\/[^\s]+$/.test(repo) || isLocalRepo(repo), {
    message: 'must be owner/name or an http(s) git URL',
  });

/** A repository on the machine of a local instance, named as `groundwork context` names it. */
export function isLocalRepo(repo: string): boolean {
  return /^file:\/\/\/[^\0]*$/.test(repo);
}

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

export const PullRequestEvidenceSchema = z.object({
  number: z.number().int().positive(),
  url: z.url().optional(),
  baseRef: z.string().optional(),
  headSha: COMMIT,
  /** Head from a fork: its content is untrusted evidence, never a source of rules. */
  fromFork: z.boolean(),
});

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
