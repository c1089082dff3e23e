/**
 * @module cli/run/follow-task
 * Polls a task until it is `ready` or `failed`, reporting each status change (and each retry,
 * with the reason the previous attempt failed) as it happens.
 */
import type { ApiClient } from './api-client.ts';

const POLL_MS = 50;
/** The Worker gives up after its own retries well before this; it only ends a wait that cannot end. */
const GIVE_UP_MS = 10 * 60 * 1000;

export type Followed = { ok: true } | { ok: false; reason: string };

export async function followTask(api: ApiClient, id: string, report: (status: string) => void): Promise<Followed> {
  const started = performance.now();
  let last = '';
  while (performance.now() - started < GIVE_UP_MS) {
    const task = await api.describe(id);
    const line = task.attempts > 1 ? `${task.status} (attempt ${task.attempts}${task.reason ? `; last failure: ${task.reason}` : ''})` : task.status;
    if (line !== last) {
      report(`${line}  +${Math.round(performance.now() - started)} ms`);
      last = line;
    }
    if (task.status === 'ready') return { ok: true };
    if (task.status === 'failed') return { ok: false, reason: task.reason ?? 'no reason given' };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { ok: false, reason: `still not ready after ${GIVE_UP_MS / 60_000} minutes` };
}
