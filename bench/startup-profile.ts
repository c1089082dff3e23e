/**
 * @module bench/startup-profile
 * A Worker's start-up CPU profiled as `wrangler check startup` does (Miniflare, the bundle's main
 * module imported by a wrapper's first fetch, V8's profiler over the inspector) but sampled every
 * 100 µs instead of V8's default 1 ms: a trivial Worker starts in a few milliseconds, so at 1 ms
 * some of its runs record no sample at all and its median, the ratio's denominator, jumps.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import * as z from 'zod';

const SAMPLING_US = 100;
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
}

/** Busy milliseconds of one cold start: the samples that are not `(idle)`. */
export async function fineStartupBusyMs(bundle: WorkerBundle): Promise<number> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: WORKER,
      inspectorPort: 0,
      modules: [
        { type: 'ESModule', path: 'profiler-entry.mjs', contents: `export default { async fetch() { await import('./${bundle.modules[0]}'); return new Response('ok'); } };` },
        ...bundle.modules.map((module) => ({ type: 'ESModule' as const, path: module, contents: readFileSync(join(bundle.dir, module), 'utf8') })),
      ],
      compatibilityDate: bundle.compatibilityDate,
      compatibilityFlags: bundle.compatibilityFlags,
    }),
  );
  try {
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
      const response = await mf.dispatchFetch('https://example.com');
      await response.text();
      if (!response.ok) throw new Error(`the Worker's first request answered ${response.status}`);
      const { profile } = z.object({ profile: Profile }).parse(await send('Profiler.stop'));
      const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
      let us = 0;
      for (const [i, sample] of profile.samples.entries()) if (names.get(sample) !== '(idle)') us += profile.timeDeltas[i] ?? 0;
      return us / 1000;
    } finally {
      ws.close();
    }
  } finally {
    await mf.dispose();
  }
}
