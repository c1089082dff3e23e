/**
 * @module triggers/github/events
 * Webhook payloads, parsed after the signature is verified. Only the fields the mapping reads
 * are modelled; everything else GitHub sends is ignored, so new payload fields never break us.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { parseWith } from '../../http/validate.ts';
import { FullNameSchema, LoginSchema, RepoNameSchema } from '../../sources/github/repo-name.ts';

const Commit = lazySchema(() => z.string().regex(/^[0-9a-f]{40}$/, 'must be a 40-hex commit'));
const Installation = lazySchema(() => z.object({ id: z.number().int().positive() }));
const RepoRef = lazySchema(() => z.object({ id: z.number().int(), full_name: z.string().min(1) }));
// Names become GitHub API paths and installation records: checked as GitHub checks them.
const RepoName = z.object({ full_name: FullNameSchema });

const Repository = z.object({
  name: RepoNameSchema,
  full_name: FullNameSchema,
  owner: z.object({ login: LoginSchema }),
});

const Count = lazySchema(() => z.number().int().nonnegative());

/** The pull request object, identical in webhook payloads and in `GET /repos/{o}/{r}/pulls/{n}`. */
export const PullRequestSchema = lazySchema(() => z.object({
  number: z.number().int().positive(),
  html_url: z.url(),
  title: z.string(),
  body: z.string().nullish(),
  // Older GitHub Enterprise Server payloads omit `draft`.
  draft: z.boolean().default(false),
  user: z.object({ login: z.string() }).nullish(),
  labels: z.array(z.object({ name: z.string() })).default([]),
  // Totals of the diff; GitHub includes them in both shapes, but they are facts we can do without.
  additions: Count.optional(),
  deletions: Count.optional(),
  changed_files: Count.optional(),
  base: z.object({ sha: Commit, ref: z.string().min(1), repo: RepoRef }),
  // `head.repo` is null once the fork it came from has been deleted.
  head: z.object({ sha: Commit, ref: z.string().min(1), repo: RepoRef.nullable() }),
}));
export type PullRequest = z.output<typeof PullRequestSchema>;

export const PullRequestEventSchema = lazySchema(() => z.object({
  action: z.string(),
  installation: Installation.optional(),
  repository: Repository,
  pull_request: PullRequestSchema,
}));
export type PullRequestEvent = z.output<typeof PullRequestEventSchema>;

export const IssueCommentEventSchema = lazySchema(() => z.object({
  action: z.string(),
  installation: Installation.optional(),
  repository: Repository,
  issue: z.object({
    number: z.number().int().positive(),
    // Present only when the issue is a pull request.
    pull_request: z.object({ url: z.string() }).optional(),
  }),
  comment: z.object({
    body: z.string(),
    user: z.object({ login: z.string(), type: z.string() }),
    author_association: z.string(),
  }),
}));
export type IssueCommentEvent = z.output<typeof IssueCommentEventSchema>;

const Selection = z.enum(['all', 'selected']);
// X-GitHub-Event is not signed. Other events carry only `installation: { id, node_id }`, so
// requiring the full installation object keeps a signed comment or pull request body from
// being applied as an installation change (an issue_comment "deleted" as an uninstall).
const InstallationDetail = lazySchema(() => Installation.unwrap().extend({
  app_id: z.number().int().positive(),
  target_type: z.string().min(1),
  account: z.object({ login: z.string() }).nullish(),
  repository_selection: Selection.optional(),
}));

export const InstallationEventSchema = lazySchema(() => z.object({
  action: z.string(),
  installation: InstallationDetail,
  repositories: z.array(RepoName).optional(),
}));
export type InstallationEvent = z.output<typeof InstallationEventSchema>;

export const InstallationRepositoriesEventSchema = lazySchema(() => z.object({
  action: z.string(),
  installation: InstallationDetail,
  repository_selection: Selection,
  repositories_added: z.array(RepoName),
  repositories_removed: z.array(RepoName),
}));
export type InstallationRepositoriesEvent = z.output<typeof InstallationRepositoriesEventSchema>;

export type GitHubEvent =
  | { name: 'pull_request'; payload: PullRequestEvent }
  | { name: 'issue_comment'; payload: IssueCommentEvent }
  | { name: 'installation'; payload: InstallationEvent }
  | { name: 'installation_repositories'; payload: InstallationRepositoriesEvent }
  | { name: 'unhandled'; event: string };

/**
 * Validates a delivery's JSON against its event's schema; a mismatch throws a 400 `ApiError`
 * naming the first bad field. Events we do not handle are not validated.
 *
 * @example
 * parseGitHubEvent('pull_request', JSON.parse(body)) // { name: 'pull_request', payload: { action: 'opened', ... } }
 */
export function parseGitHubEvent(event: string, body: unknown): GitHubEvent {
  switch (event) {
    case 'pull_request':
      return { name: event, payload: parseWith(PullRequestEventSchema, body) };
    case 'issue_comment':
      return { name: event, payload: parseWith(IssueCommentEventSchema, body) };
    case 'installation':
      return { name: event, payload: parseWith(InstallationEventSchema, body) };
    case 'installation_repositories':
      return { name: event, payload: parseWith(InstallationRepositoriesEventSchema, body) };
    default:
      return { name: 'unhandled', event };
  }
}
