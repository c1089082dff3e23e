/**
 * @module context/task-history
 * Earlier tasks as the history provider reads them. The host makes the reader for one task and
 * hands it over with `tasks:read`, already scoped: the same tenant, the same repository, created
 * before this task (so a retry of this task is shown the same tasks), this task itself left out.
 * A provider never chooses a tenant or a repository, so it cannot see another tenant's tasks.
 *
 * @example
 * const earlier = await request.tasks?.earlier({ limit: 5, signal: request.signal });
 */
import * as z from 'zod';

const TASK_ID = /^[0-9a-f]{64}$/;
const COMMIT = /^[0-9a-f]{40}$/;

export const EarlierTaskSchema = z.object({
  id: z.string().regex(TASK_ID),
  /** Where it came from: `github`, `slack`, `api`, `cli`. */
  origin: z.string().max(20),
  /** The start of its request text: the tenant's words, evidence only. */
  request: z.string(),
  /** Whether `request` is only the start of a longer text. */
  requestCut: z.boolean(),
  status: z.enum(['pending', 'assembling', 'ready', 'failed']),
  reason: z.string().nullable(),
  agent: z.string(),
  commit: z.string().regex(COMMIT).nullable(),
  /** The pull request it was about, when it was about one. */
  pullRequest: z.number().int().positive().nullable(),
  createdAt: z.iso.datetime(),
  /** When it became ready or failed; null while it is still pending or assembling. */
  finishedAt: z.iso.datetime().nullable(),
  /** Its inspector page, or null when this host knows no origin to link to. */
  viewUrl: z.string().nullable(),
  /** Whether `viewUrl` is a signed link a browser opens, or the plain page, which opens only with an API token. */
  viewUrlSigned: z.boolean(),
});
export type EarlierTask = z.infer<typeof EarlierTaskSchema>;

export interface TaskHistoryReader {
  /**
   * The most recent earlier tasks, at most `limit`: those about this task's pull request first
   * (newest first), then the other tasks on the repository (newest first). One call to the store.
   */
  earlier(options: { limit: number; signal?: AbortSignal }): Promise<EarlierTask[]>;
}
