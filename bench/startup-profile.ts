/**
 * @module bench/startup-profile
 * A Worker's CPU at a cold start, profiled as `wrangler check startup` does (Miniflare, V8's
 * profiler over the inspector) but sampled every 100 µs instead of V8's default 1 ms: a trivial
 * Worker starts in a few milliseconds, so at 1 ms some of its runs record no sample at all and its
 * median, the ratio's denominator, jumps (and a sample counts for at most 1 ms, below). Two windows:
 * - start-up (`fineStartupBusyMs`): the main module imported by a wrapper's first fetch, which is
 *   what evaluating it costs (no bindings; a Durable Object class is only evaluated, as at start-up);
 * - the first request (`firstRequestBusyMs`): the Worker with its bindings, up and started, then
 *   one request: what that request does and loads. Groundwork's entry evaluates almost nothing at
 *   start-up (scripts/worker-build), so what a request needs is paid here instead, and the two
 *   windows together are what a cold isolate costs until its first answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import * as z from 'zod';

const SAMPLING_US = 100;
/**
 * A sample stands for the time since the one before it, up to this. On the shared two-core VM the
 * sampler itself sometimes goes unscheduled for 6 to 10 ms; the sample after such a gap stood for
 * all of it, and when it fell on the isolate's own `(program)` rather than `(idle)`, 7 ms of
 * waiting counted as CPU in about half the runs of every Worker, the trivial one's included.
 */
const MAX_SAMPLE_US = 1_000;
const WORKER = 'profiled';

const Profile = z.object({
  nodes: z.array(z.object({ id: z.number(), callFrame: z.object({ functionName: z.string() }) })),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

export interface WorkerBundle {
  /** The directory `wrangler deploy --dry-run --outdir` wrote. */
  dir: string;
  /** Its modules, relative to `dir`, the main module first. */
  modules: string[];
  compatibilityDate: string;
  compatibilityFlags: string[];
  /** Miniflare worker options from its wrangler.toml (bindings, Durable Objects, KV), for the first request. */
  options?: Record<string, unknown>;
}

/** A request as the profile sends it. */
export interface ProfiledRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

function moduleFiles(bundle: WorkerBundle) {
  return bundle.modules.map((module) => ({ type: 'ESModule' as const, path: module, contents: readFileSync(join(bundle.dir, module), 'utf8') }));
}

/** Busy milliseconds of one cold start: the samples that are not `(idle)`. */
export async function fineStartupBusyMs(bundle: WorkerBundle): Promise<number> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: WORKER,
      inspectorPort: 0,
      modules: [
        { type: 'ESModule', path: 'profiler-entry.mjs', contents: `export default { async fetch() { await import('./${bundle.modules[0]}'); return new Response('ok'); } };` },
        ...moduleFiles(bundle),
      ],
      compatibilityDate: bundle.compatibilityDate,
      compatibilityFlags: bundle.compatibilityFlags,
    }),
  );
  try {
    return await profiledBusyMs(mf, { url: 'https://example.com' });
  } finally {
    await mf.dispose();
  }
}

/** Busy milliseconds of a started Worker's first request, with `bindings` on top of its own. */
export async function firstRequestBusyMs(bundle: WorkerBundle, bindings: Record<string, string>, request: ProfiledRequest): Promise<number> {
  const options = bundle.options ?? {};
  const own = typeof options['bindings'] === 'object' && options['bindings'] !== null ? options['bindings'] : {};
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...options,
      name: WORKER,
      inspectorPort: 0,
      modules: moduleFiles(bundle),
      compatibilityDate: bundle.compatibilityDate,
      compatibilityFlags: bundle.compatibilityFlags,
      bindings: { ...own, ...bindings },
    }),
  );
  try {
    await mf.ready;
    return await profiledBusyMs(mf, request);
  } finally {
    await mf.dispose();
  }
}

/** Profiles the Worker while it answers `request` (which must succeed), sampled every 100 µs. */
async function profiledBusyMs(mf: Miniflare, request: ProfiledRequest): Promise<number> {
  await mf.ready;
  const url = new URL(`/core:user:${WORKER}`, await mf.getInspectorURL());
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`could not open the inspector at ${url.href}`)), { once: true });
  });
  let id = 0;
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const mine = ++id;
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
        if (message.id !== mine) return;
        ws.removeEventListener('message', onMessage);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      };
      ws.addEventListener('message', onMessage);
      ws.send(JSON.stringify({ id: mine, method, params }));
    });
  try {
    await send('Profiler.enable');
    await send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await send('Profiler.start');
    const { url, method = 'GET', headers = {}, body } = request;
    const response = await mf.dispatchFetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 300)}`);
    const { profile } = z.object({ profile: Profile }).parse(await send('Profiler.stop'));
    const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
    let us = 0;
    for (const [i, sample] of profile.samples.entries()) if (!idle.has(sample)) us += Math.min(profile.timeDeltas[i] ?? 0, MAX_SAMPLE_US);
    return us / 1000;
  } finally {
    ws.close();
  }
}
