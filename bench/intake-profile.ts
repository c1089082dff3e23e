/**
 * `node bench/intake-profile.ts`: where a webhook burst's time goes. One burst of the `triggers`
 * bench (bench/deliveries) through `wrangler dev` with an unminified build, V8's profiler
 * attached over wrangler's inspector for the burst and the assemblies after it, and the functions
 * of Groundwork's bundle printed by self and by inclusive time. A diagnostic, not a goal: the
 * profiler slows the burst several times over, so read shares, never rates. `TOP=40` prints more;
 * `HELD=1` profiles the accept path alone (bench/workers/groundwork-held: no assembly starts);
 * `PROFILE_OUT=burst.cpuprofile` also writes the whole profile (with its line ticks) for DevTools.
 */
import { writeFileSync } from 'node:fs';
import { benchGroundworkVars, HELD_ENTRY, measureIntake, notFoundGitHub } from './deliveries.ts';
import { inspectWrangler } from './inspector.ts';
import { startWranglerDev } from './wrangler-dev.ts';
import * as z from 'zod';

const SAMPLING_US = 1000;
/** Assemblies run on after the last delivery is answered; their alarms fire within this. */
const SETTLE_MS = 3000;
const TOP = Number(process.env.TOP ?? 20);

const CallFrame = z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() });
const Profile = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: CallFrame,
      children: z.array(z.number()).optional(),
      hitCount: z.number().optional(),
      positionTicks: z.array(z.object({ line: z.number(), ticks: z.number() })).optional(),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});
type Profile = z.infer<typeof Profile>;

const github = await notFoundGitHub();
// `HELD=1`: the accept path alone (bench/workers/groundwork-held), no assembly during the profile.
const held = process.env.HELD === '1';
const wrangler = await startWranglerDev(benchGroundworkVars(github.url), { build: { minify: false, ...(held ? { entry: HELD_ENTRY } : {}) } });
try {
  const inspector = await inspectWrangler(wrangler.inspectorPort);
  try {
    await inspector.send('Profiler.enable');
    await inspector.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await inspector.send('Profiler.start');
    const perSecond = await measureIntake(wrangler.origin);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const stopped = await inspector.send('Profiler.stop');
    const { profile } = z.object({ profile: Profile }).parse(stopped);
    if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(z.object({ profile: z.unknown() }).parse(stopped).profile));
    console.log(`intake profile: ${Math.round(perSecond)} deliveries/s under the profiler; busy ${(busyUs(profile) / 1000).toFixed(0)} ms`);
    for (const line of report(profile)) console.log(line);
  } finally {
    inspector.close();
  }
} finally {
  await wrangler.stop();
  await github.close();
}

function busyUs(profile: Profile): number {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
  return profile.samples.reduce((sum, sample, i) => (idle.has(sample) ? sum : sum + (profile.timeDeltas[i] ?? 0)), 0);
}

/** Self and inclusive time per function (name and bundle line), busy samples only, largest first. */
function report(profile: Profile): string[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const name = (id: number) => {
    const frame = nodes.get(id)?.callFrame;
    return frame ? `${frame.functionName || '(anonymous)'} ${frame.url ? `${frame.url.split('/').pop()}:${frame.lineNumber + 1}` : '(native)'}` : '?';
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [i, sample] of profile.samples.entries()) {
    if (nodes.get(sample)?.callFrame.functionName === '(idle)') continue;
    const us = profile.timeDeltas[i] ?? 0;
    self.set(name(sample), (self.get(name(sample)) ?? 0) + us);
    // A recursive function counts once per sample.
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parents.get(id)) seen.add(name(id));
    for (const frame of seen) inclusive.set(frame, (inclusive.get(frame) ?? 0) + us);
  }
  const busy = busyUs(profile);
  const top = (times: Map<string, number>) => [...times].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([frame, us]) => `  ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${frame}`);
  return ['self:', ...top(self), 'inclusive:', ...top(inclusive), 'self by source line (a native call, such as an RPC, counts on the line that made it):', ...lines(profile)];
}

/** Samples per bundle line, from V8's line ticks: which statement of a function the time is in. */
function lines(profile: Profile): string[] {
  const ticks = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    if (node.callFrame.functionName === '(idle)') continue;
    total += node.hitCount ?? 0;
    for (const { line, ticks: count } of node.positionTicks ?? []) {
      const where = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url ? `${node.callFrame.url.split('/').pop()}:${line}` : '(native)'}`;
      ticks.set(where, (ticks.get(where) ?? 0) + count);
    }
  }
  return [...ticks]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([where, count]) => `  ${((100 * count) / Math.max(total, 1)).toFixed(1).padStart(5)}%  ${where}`);
}
