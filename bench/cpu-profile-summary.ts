/**
 * @module bench/cpu-profile-summary
 * Where a V8 `.cpuprofile` (node --cpu-prof) spent its samples, in one line: the total, the files
 * that took the most self time (Node's own internals as `node:internal`, V8's work with no script
 * as `(program)`, `(garbage collector)`), and the functions that did.
 */
import * as z from 'zod';

const Profile = z.object({
  nodes: z.array(z.object({ id: z.number(), callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }) })),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

const TOP_FILES = 5;
const TOP_FUNCTIONS = 5;

/**
 * `maxSampleUs`: a sample counts for at most this long (workerd's sampler on a shared VM stalls for
 * milliseconds now and then, and the sample after a stall would stand for all of it).
 */
export function summariseCpuProfile(raw: unknown, options: { maxSampleUs?: number } = {}): string {
  const profile = Profile.parse(raw);
  const cap = options.maxSampleUs ?? Number.POSITIVE_INFINITY;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    // A sample's delta is the time since the one before: it belongs to this sample's frame.
    const us = Math.min(profile.timeDeltas[index] ?? 0, cap);
    const frame = frames.get(id);
    if (!frame || frame.functionName === '(idle)') return;
    total += us;
    const file = fileOf(frame.url, frame.functionName);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`)
      .join(', ');
  return `${(total / 1000).toFixed(0)} ms sampled; by file (ms): ${top(byFile, TOP_FILES)}; by function (ms): ${top(byFunction, TOP_FUNCTIONS)}`;
}

function fileOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:internal')) return 'node:internal';
  if (url.startsWith('node:')) return url;
  const path = url.replace(/^file:\/\//, '');
  const dist = path.lastIndexOf('/dist/');
  if (dist >= 0) return path.slice(dist + 1);
  const modules = path.lastIndexOf('/node_modules/');
  return modules >= 0 ? path.slice(modules + 1) : path;
}
