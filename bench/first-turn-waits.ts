/**
 * What bench/first-turn waits on, none of it in the Worker's way: the GitHub server's log (a
 * request of the turn, the check run it creates), the task's own word that it is ready (asked after
 * the window), and an agent waiting on the task as the API offers it. The server is on a thread of
 * the bench, so reading its log asks the Worker nothing.
 */
import * as z from 'zod';

/** The GitHub server's scope the bench's turns use, and the API token the bench's Worker takes. */
export const SCOPE = 'first-turn';
export const API_TOKEN = 'bench-first-turn-token-0123456789';
/** How often the bench looks at the GitHub server's log. */
const POLL_MS = 10;
const READY_TIMEOUT_MS = 60_000;

const TaskState = z.looseObject({ status: z.string(), reason: z.string().nullable().optional(), turns: z.array(z.looseObject({ github: z.unknown().optional() })).optional() });
const Stats = z.object({ requests: z.array(z.object({ method: z.string(), path: z.string(), status: z.number(), startedAt: z.number(), endedAt: z.number() })) });
export type ServerRequest = z.output<typeof Stats>['requests'][number];

/**
 * An agent waiting on the task as the API offers it: one `GET /tasks/:id?wait=30`, held open until
 * the task settles (never a poll), sent once the turn's first GitHub request is out, so it reaches
 * the Worker while the turn waits on GitHub rather than beside the work before that request.
 * Resolves with when its answer came (this process's clock), which must say `ready`.
 */
export async function waitingClient(origin: string, taskId: string, githubOrigin: string, seen: number): Promise<number> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  // The first two entries past `seen` are the clock request and the turn's first request.
  while ((await stats(githubOrigin)).requests.length < seen + 2) {
    if (performance.now() > deadline) throw new Error('first turn bench: no GitHub request from the turn');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const response = await fetch(`${origin}/tasks/${taskId}?wait=30`, { headers: { authorization: `Bearer ${API_TOKEN}` } });
  const heard = performance.now();
  const task = TaskState.parse(await response.json());
  if (task.status !== 'ready') throw new Error(`first turn bench: the waiting client heard ${task.status} (${task.reason ?? ''})`);
  return heard;
}

/** The check run the Task object creates once turn 0 is stored, as the GitHub server logged it. */
export async function untilReported(githubOrigin: string, seen: number): Promise<ServerRequest> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    const found = (await stats(githubOrigin)).requests.slice(seen).find((request) => request.method === 'POST' && request.path.includes('/check-runs'));
    if (found) return found;
    if (performance.now() > deadline) throw new Error(`first turn bench: no check run within ${READY_TIMEOUT_MS} ms of the delivery`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The task's own word that it is ready, asked after the window (slowly: it only confirms). */
export async function untilReady(origin: string, taskId: string): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    const response = await fetch(`${origin}/tasks/${taskId}`, { headers: { authorization: `Bearer ${API_TOKEN}` } });
    const task = response.status === 200 ? TaskState.parse(await response.json()) : (await response.body?.cancel(), undefined);
    if (task?.status === 'ready') return;
    if (task?.status === 'failed' || performance.now() > deadline) throw new Error(`first turn bench: task ${taskId} did not become ready: ${JSON.stringify(task ?? response.status).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function stats(origin: string): Promise<z.output<typeof Stats>> {
  const response = await fetch(`${origin}/__stats/${SCOPE}`);
  return Stats.parse(await response.json());
}

export async function post(url: string, body: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', body });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
}
