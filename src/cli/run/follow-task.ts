/**
 * @module cli/run/follow-task
 * Follows a task until it is `ready` or `failed`, reporting each status change (and each retry,
 * with the reason the previous attempt failed). After a first read, which shows where the task is
 * at once, each read is the service's long poll (`GET /tasks/:id?wait=`): answered the moment the
 * task settles, else at the wait's end with where it is then. So the last line comes as soon as
 * the task settles, a status between (an attempt under way, a retry) is seen within one wait, and
 * the run asks about once a wait instead of every 50 ms.
 */
import type { ApiClient } from './api-client.ts';

/** Seconds each long poll may wait: how late a status before the last one may be seen. */
export const FOLLOW_WAIT_SECONDS = 1;
/** The Worker gives up after its own retries well before this; it only ends a wait that cannot end. */
const GIVE_UP_MS = 10 * 60 * 1000;

export type Followed = { ok: true } | { ok: false; reason: string };

export interface FollowOptions {
  /** The clock for the lines' times and the deadline (ms); `performance.now` by default. */
  now?: () => number;
}

export async function followTask(api: ApiClient, id: string, report: (status: string) => void, options: FollowOptions = {}): Promise<Followed> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  let last = '';
  for (let read = 0; now() - started < GIVE_UP_MS; read++) {
    const task = await api.describe(id, read === 0 ? {} : { waitSeconds: FOLLOW_WAIT_SECONDS });
    const line = task.attempts > 1 ? `${task.status} (attempt ${task.attempts}${task.reason ? `; last failure: ${task.reason}` : ''})` : task.status;
    if (line !== last) {
      report(`${line}  +${Math.round(now() - started)} ms`);
      last = line;
    }
    if (task.status === 'ready') return { ok: true };
    if (task.status === 'failed') return { ok: false, reason: task.reason ?? 'no reason given' };
  }
  return { ok: false, reason: `still not ready after ${GIVE_UP_MS / 60_000} minutes` };
}
